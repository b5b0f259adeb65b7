// The mock server's defaults: every number a careful auth server needs, named once.
// Their reasons: ADR 004 (docs/decisions/004-tokens-sessions-codes.md) and the README's "Rules it enforces".

export const MINUTE_MS = 60_000

/** Access tokens (JWT) live 15 minutes by default. */
export const ACCESS_TOKEN_TTL_MS = 15 * MINUTE_MS
/** A refresh family's absolute lifetime; rotation never extends it. */
export const REFRESH_TOKEN_TTL_MS = 24 * 60 * MINUTE_MS
/**
 * The bounds of --access-ttl and --refresh-ttl (docs/mock-server.md, Flags). Tokens carry their expiry in whole
 * seconds, so below a second every token is born expired. An access token cannot be revoked before it expires (a
 * log-out ends it only then), so it lives an hour at most; a refresh family, whose log-in it stands for, 30 days.
 */
export const MIN_TOKEN_TTL_MS = 1_000
export const MAX_ACCESS_TOKEN_TTL_MS = 60 * MINUTE_MS
export const MAX_REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * MINUTE_MS
/** The parent of the live refresh token returns the same live pair within this window. */
export const REFRESH_GRACE_MS = 10_000
/** The cookie session lives as long as its refresh family. */
export const SESSION_TTL_MS = REFRESH_TOKEN_TTL_MS

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

export const CODE_DIGITS = 6
export const CODE_TTL_MS = 10 * MINUTE_MS
export const CODE_MAX_ATTEMPTS = 5
export const CODE_COOLDOWN_MS = 30_000
/**
 * Wrong codes per (address, purpose) in any hour, across resends (docs/security/codes.md): at most 1,440
 * guesses a day at one account (3 purposes x 20 x 24), however many codes are sent.
 */
export const CODE_GUESS_LIMIT = { max: 20, windowMs: 60 * MINUTE_MS }
/** Addresses whose wrong guesses are kept in memory at most; past it the one that guessed least recently goes. */
export const MAX_GUESS_LOGS = 50_000
/** Decoy codes (for addresses without one) kept in memory at most; see docs/security/hardening.md. */
export const MAX_DECOYS = 10_000
/**
 * How long the newest sign-up's password of an address answers sign-in with `unverified`, and how many addresses
 * are kept (docs/security/codes.md): as long as an unverified account keeps the password of its sign-up.
 */
export const PENDING_PASSWORD_MS = 7 * 24 * 60 * MINUTE_MS + CODE_TTL_MS
export const MAX_PENDING_PASSWORDS = 50_000
/** Accounts never verified kept at most (the seeds aside); past it the purge drops the oldest whose code is gone. */
export const MAX_UNVERIFIED_ACCOUNTS = 50_000
/**
 * The instants a date-time can name in four-digit years (RFC 3339), from 0000-01-01 to 9999-12-31 UTC: a stored
 * date or the mock clock outside them would be written as `+010000-…` or `-000001-…`, which is no date-time.
 */
export const EARLIEST_DATE_MS = Date.parse('0000-01-01T00:00:00.000Z')
export const LATEST_DATE_MS = Date.parse('9999-12-31T23:59:59.999Z')
/** Expired codes, tokens and ended sessions are purged at most this often (control-clock time). */
export const PURGE_INTERVAL_MS = MINUTE_MS
/**
 * Ended sessions a SQL store deletes in one statement, and statements in one purge: a backlog (instances stopped for
 * days, a restored backup) goes 100,000 a purge, each statement well inside PostgreSQL's statement time-out, which
 * cancelled one DELETE of millions every time, so the backlog never went (compose/sql-drivers.ts).
 */
export const PURGE_BATCH_ROWS = 5_000
export const PURGE_BATCHES_PER_RUN = 20
export const RESET_TOKEN_TTL_MS = 15 * MINUTE_MS
/**
 * The mock OpenID provider (docs/decisions/022-openid-provider.md): an authorization code lives 2 minutes, its ID
 * and access tokens 10, a sign-in request waiting at its form 10; it keeps at most IDP_MAX_ENTRIES of each (codes,
 * tokens, requests, accounts, clients), the oldest going first.
 */
export const IDP_CODE_TTL_MS = 2 * MINUTE_MS
export const IDP_TOKEN_TTL_MS = 10 * MINUTE_MS
export const IDP_REQUEST_TTL_MS = 10 * MINUTE_MS
export const IDP_MAX_ENTRIES = 10_000
/** An external sign-in the product started waits this long for its callback; at most MAX_PENDING_SIGN_INS wait. */
export const EXTERNAL_SIGN_IN_TTL_MS = 10 * MINUTE_MS
export const MAX_PENDING_SIGN_INS = 10_000
/**
 * How long a browser may reuse a preflight's answer for a --cors-origin (docs/decisions/020-deploying-on-two-origins.md):
 * ten minutes, so a changed list of origins or headers reaches every browser soon; Chromium caps it at two hours.
 */
export const CORS_MAX_AGE_SECONDS = 600

/** Consecutive wrong passwords from one client address that lock that address out of that account... */
export const LOCKOUT_THRESHOLD = 10
/** ... for this long (docs/security/lockout.md). Other addresses are not locked. */
export const LOCKOUT_MS = 15 * MINUTE_MS
/** Wrong passwords per account from all addresses together in a window before sign-in to it is paced. */
export const ACCOUNT_FAILURE_CEILING = { max: 100, windowMs: 24 * 60 * MINUTE_MS }
/**
 * Past the ceiling, one password attempt per account per this long from unknown addresses. That caps guesses at
 * 100 + 720 per account a day, under the old lock-out's 960 (docs/security/lockout.md).
 */
export const ACCOUNT_PACE_MS = 2 * MINUTE_MS
/** An address the account signed in from is known to it (not paced) for this long after. */
export const FAMILIAR_CLIENT_MS = 30 * 24 * 60 * MINUTE_MS

/** Per client address: sign-in attempts allowed in each window (never below 100 per 15 minutes). */
export const LOGIN_RATE_LIMIT = { max: 100, windowMs: 15 * MINUTE_MS }
/** Per client address, for the calls that mail something or check a code. */
export const MAIL_RATE_LIMIT = { max: 100, windowMs: 15 * MINUTE_MS }
/** Per client address, code checks (`otp/verify`), counted apart from sign-in. */
export const VERIFY_RATE_LIMIT = { max: 100, windowMs: 15 * MINUTE_MS }
/** The windows one rate limiter holds at most; when full it evicts, never clears (docs/security/surface.md). */
export const RATE_LIMIT_CAPACITY = 50_000

/**
 * What each error-report sink (Sentry events, recorder sessions) keeps at most, counted as JSON text; past it the
 * oldest go first (docs/security/hardening.md). Each request is bounded apart by its body limit.
 */
export const MAX_SINK_BYTES = 8 * 1024 * 1024

/**
 * The headers and bodies the request journal keeps for GET /__mock/requests?format=har, counted by the length of their
 * strings; past it the oldest calls keep only their URL, status and timing (docs/security/hardening.md).
 */
export const MAX_JOURNAL_EXCHANGE_CHARS = 8 * 1024 * 1024

/** The default body limit of an operation; a few declare their own (`x-max-body-bytes`). */
export const MAX_BODY_BYTES = 16 * 1024

/** A client has this long to send a request's headers (docs/security/hardening.md). */
export const HEADERS_TIMEOUT_MS = 10_000
/** ... and this long for the whole request, body included. */
export const REQUEST_TIMEOUT_MS = 30_000
/**
 * An idle keep-alive connection is closed after this long (Node's own default, stated). A balancer keeping idle
 * connections to the server must drop them sooner, or it may send a call on one the server is closing: a 502
 * (harness/balancer/auth-shell.nginx.conf).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000
/** How long the server still reads, and discards, a body it answered without reading, before it closes. */
export const LINGER_MS = 5_000
/** Open connections at most; more are closed as they arrive. */
export const MAX_CONNECTIONS = 512
/** How often the server looks for requests past their time. */
export const CONNECTION_CHECK_INTERVAL_MS = 1_000

/** argon2id at OWASP's first recommendation: m=19 MiB, t=2, p=1. */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }
/** Hashes computed at once; the rest wait their turn (2 cores here). */
export const HASH_CONCURRENCY = 2
/**
 * A mail the SMTP server did not take is tried again after each of these waits (docs/mail.md): four attempts in
 * about six minutes, so the last still carries a code within its 10 minutes; one whose code expires first is not sent.
 */
export const MAIL_RETRY_DELAYS_MS = [10_000, MINUTE_MS, 5 * MINUTE_MS] as const
/** Mails sent over SMTP at once; the others wait their turn. */
export const MAIL_SEND_CONCURRENCY = 2
/**
 * One attempt to send a mail ends by then, whatever the server does: nodemailer's own limits bound only silence, and
 * a server trickling a line now and then held both sends, and every mail behind them, for good (docs/mail.md).
 */
export const MAIL_ATTEMPT_DEADLINE_MS = 2 * MINUTE_MS
/** Mails waiting for SMTP at most (queued or waiting for a retry); past it a new one is dropped and reported. */
export const MAX_MAILS_WAITING = 1_000

/** A readiness probe that has not answered by then counts as `timeout` (docs/deploying.md, Probes). */
export const READINESS_PROBE_TIMEOUT_MS = 2_000
/** The `Retry-After` of a 503 from /readyz, in seconds. */
export const READINESS_RETRY_AFTER_S = 5
/**
 * How long a stopping server waits for the requests in flight before it exits anyway (docs/mock-server.md,
 * Stopping): below Kubernetes' default grace period of 30 s, so the server's own flush runs before a SIGKILL.
 */
export const SHUTDOWN_TIMEOUT_MS = 10_000
/**
 * The part of the shutdown a stopping server gives the mails still to send (docs/mail.md): then every one not sent is
 * reported, and the rest of the shutdown (the store's closing) still has its time.
 */
export const MAIL_CLOSE_DEADLINE_MS = SHUTDOWN_TIMEOUT_MS / 2

/**
 * The subject of each mail that carries a code, by purpose (docs/mail.md): the contract suite's capture of a target's
 * mail reads the purpose from it.
 */
export const CODE_MAIL_SUBJECTS = {
  signup: 'Confirm your e-mail address',
  login: 'Your sign-in code',
  reset: 'Reset your password',
} as const
