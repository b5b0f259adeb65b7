// The mock server's options (createMockCore, createApp): every setting main.ts reads from flags and environment,
// and the few only tests set.
import type { ExternalSignInProvider, OidcOptions } from '../external-sign-in/index.ts'
import type { GuessLimit } from '../product/domain/guess-log.ts'
import type { ViewerReader } from '../control/docs-operations.ts'
import type { Gunzip } from '../control/sinks.ts'
import type { createMailOutbox } from '../control/mail-outbox.ts'
import type { createSmtpOutbox, SmtpSettings } from '../control/smtp-mail.ts'
import type { BuildFileReader } from '../product/operations/context.ts'
import type { createPersistence } from './persistence.ts'
import type { SqlState } from './sql-persistence.ts'
import type { ShutdownHook } from './shutdown.ts'
import type { ReadinessProbe } from '../health/index.ts'
import type { CompiledDocuments } from '../pipeline/openapi-docs.ts'
import type { HasherOptions } from '../product/domain/passwords.ts'
import type { RateLimit } from '../product/domain/rate-limit.ts'

export interface MockOptions {
  /** No /__mock surface (404), as a deployed server would be. */
  production?: boolean
  accessTokenTtlMs?: number
  refreshTokenTtlMs?: number
  refreshGraceMs?: number
  codeCooldownMs?: number
  loginRateLimit?: RateLimit
  mailRateLimit?: RateLimit
  /** Code checks (`otp/verify`) per client address. */
  verifyRateLimit?: RateLimit
  /** Wrong codes per (address, purpose) across resends (default CODE_GUESS_LIMIT). */
  codeGuessLimit?: GuessLimit
  /** Decoy codes kept at most (default MAX_DECOYS); the oldest go first. */
  maxDecoys?: number
  /** What each error-report sink keeps at most, in bytes of JSON (default MAX_SINK_BYTES). */
  maxSinkBytes?: number
  /** Lower the hash cost only where a test says so explicitly. */
  hasher?: HasherOptions
  /** The documents' compiled routes, shared by a caller that makes many servers; else each core compiles its own. */
  documents?: CompiledDocuments | undefined
  /** Seed the demo accounts the README publishes (default: in development only). */
  seed?: boolean
  /**
   * Keep state in this JSON file across restarts (atomic writes); with `sql`, the file an empty database takes its
   * state from, once.
   */
  dataFile?: string
  /** Keep state in this SQL database (opened and migrated by main.ts: compose/sql-state.ts). */
  sql?: SqlState
  /** The real time source behind the control clock (default Date.now). */
  realNow?: () => number
  /** One line per request and per fault; never tokens, passwords or codes. */
  log?: (line: string) => void
  /** One line per fault the server survives, even when `log` is off (a failed data-file write, every 500). */
  logError?: (line: string) => void
  /** Accounts never verified kept at most (default MAX_UNVERIFIED_ACCOUNTS; small in tests). */
  maxUnverifiedAccounts?: number
  /** The built web app (web/dist): its build manifest is served under /builds/. */
  webRoot?: string
  /** Host names /__mock answers to besides the loopback names (--allow-host; the bound address). */
  allowedHosts?: string[]
  /** When set, every /__mock call must carry it (--control-token, MOCK_CONTROL_TOKEN). */
  controlToken?: string
  /**
   * The origins whose pages may call the product API with credentials (--cors-origin), as browsers write them
   * (cli/cli-values.ts `parseCorsOrigins`); none by default (pipeline/cors.ts).
   */
  corsOrigins?: readonly string[]
  /** Every mail sent is also written to this folder, code included (--mail-outbox; control/mail-outbox.ts). */
  mailOutbox?: string
  /**
   * Every mail sent also goes to this SMTP server, behind the call that sent it, with retries (--smtp, SMTP_URL;
   * control/smtp-mail.ts, docs/mail.md). The /__mock mailbox and --mail-outbox keep working beside it.
   */
  smtp?: SmtpSettings | undefined
  /** Reads the /__mock/docs viewer's script (control/docs-operations.ts); app.ts hands the Node one. */
  readDocsViewer?: ViewerReader | undefined
  /** Inflates gzip recorder batches synchronously (control/sinks.ts); app.ts hands Node's. */
  gunzip?: Gunzip | undefined
  /** Opens the data file (compose/persistence.ts), the mail outbox and the build's files: app.ts hands Node's. */
  openDataFile?: typeof createPersistence | undefined
  openMailOutbox?: typeof createMailOutbox | undefined
  /** Opens the SMTP transport (nodemailer, which only the Node server bundles). */
  openSmtp?: typeof createSmtpOutbox | undefined
  readBuildFile?: BuildFileReader | undefined
  /**
   * External sign-in's provider as code (tests). Without it or `oidc`, the product uses the mock provider at /idp;
   * in production mode external sign-in then answers `external_sign_in_unavailable`.
   */
  externalSignIn?: ExternalSignInProvider
  /** A real OpenID provider for external sign-in (--oidc-issuer, --oidc-client-id, OIDC_CLIENT_SECRET). */
  oidc?: OidcOptions
  /**
   * The origin people reach this server at, when a proxy changes it (--public-origin). It sets the mock provider's
   * issuer, the redirect URIs, and a name /__mock and /idp answer to. Default: the request's.
   */
  publicOrigin?: string
  /**
   * What /readyz asks besides the server's own pieces (health/index.ts): a database, a mail server. Each answers
   * true when its dependency does; /readyz is 503 while one does not.
   */
  readinessProbes?: readonly ReadinessProbe[]
  /**
   * Closed in order when the server stops, after the requests in flight and the data file's and outbox's flush
   * (core.ts `close`; compose/shutdown.ts): a database pool, a mail transport.
   */
  onShutdown?: readonly ShutdownHook[]
}
