// The product's tables, as versioned migrations (shared/sql-migrate.ts applies them in order, once each).
// A migration is never edited once released: a change is a new one. Times are milliseconds since the epoch as
// double precision (exact to 2^53), so every driver reads them back as numbers. `seq` keeps the order of writing,
// which `GET /__mock/state` and a data file show.
import type { Migration } from '../../shared/sql-migrate.ts'

export const PRODUCT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'product records',
    sql: `
      CREATE TABLE users (
        seq bigserial,
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        name text NOT NULL,
        password_hash text NOT NULL,
        verified boolean NOT NULL,
        created_at double precision NOT NULL
      );
      CREATE TABLE sessions (
        seq bigserial,
        id text PRIMARY KEY,
        user_id text NOT NULL,
        cookie_hash text NOT NULL UNIQUE,
        service_token_hash text NOT NULL,
        created_at double precision NOT NULL,
        expires_at double precision NOT NULL,
        revoked_at double precision,
        revoked_reason text
      );
      CREATE INDEX sessions_user ON sessions (user_id);
      CREATE TABLE refresh_tokens (
        seq bigserial,
        id text PRIMARY KEY,
        session_id text NOT NULL,
        hash text NOT NULL UNIQUE,
        created_at double precision NOT NULL,
        retired_at double precision,
        child_id text,
        grace_box text
      );
      CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
      CREATE TABLE codes (
        seq bigserial,
        id text PRIMARY KEY,
        email text NOT NULL,
        purpose text NOT NULL,
        hash text NOT NULL,
        sent_at double precision NOT NULL,
        expires_at double precision NOT NULL,
        attempts integer NOT NULL,
        used_at double precision,
        burned boolean NOT NULL,
        superseded_at double precision,
        signup jsonb
      );
      CREATE INDEX codes_address ON codes (email, purpose, sent_at);
      CREATE TABLE reset_tokens (
        seq bigserial,
        id text PRIMARY KEY,
        user_id text NOT NULL,
        hash text NOT NULL UNIQUE,
        expires_at double precision NOT NULL,
        used_at double precision
      );
      CREATE INDEX reset_tokens_user ON reset_tokens (user_id);
      CREATE TABLE steps (
        seq bigserial,
        id text PRIMARY KEY,
        user_id text NOT NULL,
        position integer NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        status text NOT NULL,
        scheduled_at text
      );
      CREATE INDEX steps_user ON steps (user_id, position);
      CREATE TABLE server_meta (
        key text PRIMARY KEY,
        value jsonb NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "the rules' counters",
    // storage/sql-counters.ts: what every instance must count together (domain/counters.ts).
    sql: `
      CREATE TABLE rate_windows (
        bucket text NOT NULL,
        key text NOT NULL,
        start_ms double precision NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, key)
      );
      CREATE TABLE lock_pairs (
        account text NOT NULL,
        client text NOT NULL,
        failures integer NOT NULL,
        locked_until double precision NOT NULL,
        PRIMARY KEY (account, client)
      );
      CREATE TABLE familiar_clients (
        account text NOT NULL,
        client text NOT NULL,
        until_ms double precision NOT NULL,
        PRIMARY KEY (account, client)
      );
      CREATE TABLE code_guesses (
        seq bigserial PRIMARY KEY,
        key text NOT NULL,
        at_ms double precision NOT NULL
      );
      CREATE INDEX code_guesses_key ON code_guesses (key, at_ms);
      CREATE TABLE pending_passwords (
        address text PRIMARY KEY,
        password_hash text NOT NULL,
        until_ms double precision NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'armed scenarios and the mailbox',
    // compose/sql-control.ts: what /__mock arms and reads must be the same whichever instance answers.
    sql: `
      CREATE TABLE scenarios (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        email text,
        body jsonb NOT NULL,
        remaining integer
      );
      CREATE TABLE mails (
        seq bigserial PRIMARY KEY,
        to_address text NOT NULL,
        body jsonb NOT NULL
      );
      CREATE INDEX mails_to ON mails (to_address, seq);
    `,
  },
  {
    version: 4,
    name: 'the request journal',
    // compose/sql-journal.ts: /__mock/requests lists every instance's calls, numbered in one order by `seq`. The
    // exchange (already redacted) is dropped for newer ones past the size limit; `summary` keeps its URL and status.
    // `exchange_from` counts the exchanges' characters before this one, so the size limit needs no sum.
    sql: `
      CREATE TABLE journal (
        seq bigserial PRIMARY KEY,
        email text,
        at_ms double precision NOT NULL,
        entry jsonb NOT NULL,
        exchange jsonb,
        summary jsonb,
        exchange_from bigint NOT NULL,
        exchange_chars integer NOT NULL
      );
      CREATE INDEX journal_email ON journal (email, seq);
      CREATE INDEX journal_exchanges ON journal (exchange_from) WHERE exchange IS NOT NULL;
    `,
  },
]
