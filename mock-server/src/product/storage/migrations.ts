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
  {
    version: 5,
    name: "the identity provider's state and the pending external sign-ins",
    // compose/sql-idp.ts, sql-idp-grants.ts and sql-sign-ins.ts: a sign-in started on one instance is called back
    // on another. Only hashes of request ids, codes, tokens, states and bindings; a pending sign-in's nonce and PKCE
    // verifier sealed (sql-sign-ins.ts says how).
    sql: `
      CREATE TABLE idp_accounts (
        seq bigserial,
        email text PRIMARY KEY,
        sub text NOT NULL UNIQUE,
        name text NOT NULL
      );
      CREATE TABLE idp_clients (
        seq bigserial,
        client_id text PRIMARY KEY,
        secret_hash text,
        redirect_uris jsonb NOT NULL
      );
      CREATE TABLE idp_requests (
        seq bigserial,
        hash text PRIMARY KEY,
        body jsonb NOT NULL,
        expires_at double precision NOT NULL
      );
      CREATE TABLE idp_codes (
        seq bigserial,
        hash text PRIMARY KEY,
        body jsonb NOT NULL,
        expires_at double precision NOT NULL,
        spent boolean NOT NULL DEFAULT false,
        replayed boolean NOT NULL DEFAULT false
      );
      CREATE TABLE idp_tokens (
        seq bigserial,
        hash text PRIMARY KEY,
        code_hash text NOT NULL,
        body jsonb NOT NULL,
        expires_at double precision NOT NULL
      );
      CREATE INDEX idp_tokens_code ON idp_tokens (code_hash);
      CREATE TABLE pending_sign_ins (
        seq bigserial,
        state_hash text PRIMARY KEY,
        binding_hash text NOT NULL,
        sealed text NOT NULL,
        expires_at double precision NOT NULL
      );
      -- The caps drop the oldest and the expired (compose/sql-bounded.ts) through these.
      CREATE INDEX idp_accounts_seq ON idp_accounts (seq);
      CREATE INDEX idp_clients_seq ON idp_clients (seq);
      CREATE INDEX idp_requests_seq ON idp_requests (seq);
      CREATE INDEX idp_requests_expiry ON idp_requests (expires_at);
      CREATE INDEX idp_codes_seq ON idp_codes (seq);
      CREATE INDEX idp_codes_expiry ON idp_codes (expires_at);
      CREATE INDEX idp_tokens_seq ON idp_tokens (seq);
      CREATE INDEX idp_tokens_expiry ON idp_tokens (expires_at);
      CREATE INDEX pending_sign_ins_seq ON pending_sign_ins (seq);
      CREATE INDEX pending_sign_ins_expiry ON pending_sign_ins (expires_at);
    `,
  },
  {
    version: 6,
    name: 'the error-reporting and session-recorder sinks',
    // compose/sql-sinks.ts: what the sinks list must be what every instance received. Each entry is its JSON text
    // as listed, with its size in bytes for the caps; a recording session is found by its upload token's SHA-256.
    sql: `
      CREATE TABLE sink_events (
        seq bigserial PRIMARY KEY,
        body text NOT NULL,
        bytes integer NOT NULL
      );
      CREATE TABLE recorder_sessions (
        seq bigserial PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        body text NOT NULL,
        bytes integer NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'decoy codes',
    // storage/sql-decoys.ts: wrong codes for an address without a code count on one decoy across instances.
    // No hash: a decoy matches no code. `seq` keeps the age the cap drops the oldest by.
    sql: `
      CREATE TABLE decoy_codes (
        seq bigserial,
        email text NOT NULL,
        purpose text NOT NULL,
        sent_at double precision NOT NULL,
        expires_at double precision NOT NULL,
        attempts integer NOT NULL,
        burned boolean NOT NULL,
        PRIMARY KEY (email, purpose)
      );
      CREATE INDEX decoy_codes_age ON decoy_codes (seq);
    `,
  },
]
