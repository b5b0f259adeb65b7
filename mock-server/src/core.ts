// The mock backend assembled without a host: state, control pieces, operation tables and the one
// dispatch function that the Express and MSW hosts both adapt to.
import * as defaults from './shared/constants.ts'
import { createControlClock, type ControlClock } from './control/clock.ts'
import { createJournal } from './pipeline/journal.ts'
import { createMailbox } from './control/mailbox.ts'
import { createScenarios } from './control/scenarios.ts'
import { createSinks } from './control/sinks.ts'
import { normalizeEmail, type DomainConfig, type DomainContext } from './product/domain/context.ts'
import { createRandomToken, hashToken } from './shared/crypto.ts'
import { createDecoyCodes } from './product/domain/decoys.ts'
import { createGuessLog, type GuessLimit } from './product/domain/guess-log.ts'
import type { ExternalSignInProvider } from './product/domain/external-sign-in.ts'
import { createKeyedLock } from './product/domain/locks.ts'
import { createLockout } from './product/domain/lockout.ts'
import { createPendingPasswords } from './product/domain/pending-passwords.ts'
import { purgeExpired } from './product/domain/purge.ts'
import { createPasswordHasher, type HasherOptions } from './product/domain/passwords.ts'
import { createRateLimiter, type RateLimit } from './product/domain/rate-limit.ts'
import { SEED_ACCOUNTS, seedAccounts } from './product/domain/seed.ts'
import { clearStore, createStore } from './product/domain/store.ts'
import { findRefreshToken, getSignedAccessTokenSubject, verifyAccessToken } from './product/domain/tokens.ts'
import { getUserById } from './product/domain/users.ts'
import { getSessionByCookie } from './product/domain/sessions.ts'
import { readSessionCookie } from './pipeline/cookies.ts'
import { createDispatcher, type Dispatch } from './pipeline/dispatch.ts'
import { createRoutes, type DocumentName } from './pipeline/openapi-docs.ts'
import {
  isDocsPath,
  refuseControlRequest,
  refuseDocsRequest,
  refuseIdpRequest,
} from './pipeline/control-guard.ts'
import type { RawRequest, RawResponse } from './pipeline/raw.ts'
import { createControlTable, createOperations } from './product/operations/index.ts'
import type { AnyHandler } from './pipeline/types.ts'
import { createExternalSignIn, type OidcOptions } from './external-sign-in/provider.ts'
import type { OperationsContext } from './product/operations/context.ts'
import { createPersistence, type Persistence } from './compose/persistence.ts'
import { createMailOutbox, withOutbox } from './control/mail-outbox.ts'
import { createOpenIdProvider } from './idp/provider.ts'
import { createPendingSignIns } from './external-sign-in/pending-sign-ins.ts'

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
  /**
   * Seed the demo accounts, whose passwords the README publishes (default: in development only; production
   * starts with no account but those of its data file).
   */
  seed?: boolean
  /** Keep state in this file across restarts (atomic writes). */
  dataFile?: string
  /** The real time source behind the control clock (default Date.now). */
  realNow?: () => number
  /** One line per request and per fault; never tokens, passwords or codes. */
  log?: (line: string) => void
  /**
   * One line per fault the server survives, even when `log` is off: a failed data-file write (stderr when not
   * given) and every 500 (not logged when not given; `npm run mock` gives stderr).
   */
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
   * The origins whose pages may call the product API with credentials (--cors-origin), exactly as browsers write
   * them in `Origin` (cli-values.ts `parseCorsOrigins`); none by default (http/cors.ts).
   */
  corsOrigins?: readonly string[]
  /** Every mail sent is also written to this folder, code included (--mail-outbox; mail-outbox.ts). */
  mailOutbox?: string
  /**
   * External sign-in's provider as code (tests). Without it, and without `oidc`, the product is a relying party of
   * the OpenID provider the mock plays at /idp, except in production mode, where external sign-in then answers
   * `external_sign_in_unavailable`.
   */
  externalSignIn?: ExternalSignInProvider
  /** A real OpenID provider for external sign-in (--oidc-issuer, --oidc-client-id, OIDC_CLIENT_SECRET). */
  oidc?: OidcOptions
  /**
   * The origin people reach this server at, when a proxy in front changes it (--public-origin): the mock provider's
   * issuer, the redirect URIs sent to a provider, and a name /__mock and /idp answer to. Default: the request's.
   */
  publicOrigin?: string
}

export interface MockCore {
  dispatch(request: RawRequest): Promise<RawResponse | null>
  /** Resolves once the seed (or the data file) is loaded. */
  ready: Promise<void>
  clock: ControlClock
  ops: OperationsContext
  production: boolean
  /** Whether external sign-in works here (config.json `externalSignIn`). */
  externalSignIn: boolean
  /** Writes pending state to the data file and pending mails to the outbox, if any. */
  flush(): Promise<void>
  /**
   * Each document's operations by operationId, looked up at every call: a test replaces one to make it throw,
   * and sees the answer a fault gets (contracts/conformance.contract.test.ts).
   */
  tables: Record<DocumentName, Record<string, AnyHandler>>
}

export function createMockCore(options: MockOptions = {}): MockCore {
  const production = options.production === true
  const seeded = options.seed ?? !production
  const clock = createControlClock(options.realNow)
  const config: DomainConfig = {
    accessTokenTtlMs: options.accessTokenTtlMs ?? defaults.ACCESS_TOKEN_TTL_MS,
    refreshTokenTtlMs: options.refreshTokenTtlMs ?? defaults.REFRESH_TOKEN_TTL_MS,
    refreshGraceMs: options.refreshGraceMs ?? defaults.REFRESH_GRACE_MS,
    codeTtlMs: defaults.CODE_TTL_MS,
    codeCooldownMs: options.codeCooldownMs ?? defaults.CODE_COOLDOWN_MS,
    codeMaxAttempts: defaults.CODE_MAX_ATTEMPTS,
    secret: createRandomToken(),
  }
  const outbox = options.mailOutbox
    ? createMailOutbox(options.mailOutbox, options.logError ?? ((line) => console.error(line)))
    : null
  const mailbox = outbox ? withOutbox(createMailbox(clock), outbox, clock) : createMailbox(clock)
  const domain: DomainContext = {
    store: createStore(),
    clock,
    locks: createKeyedLock(),
    hasher: createPasswordHasher(options.hasher),
    mailbox,
    config,
    decoys: createDecoyCodes(options.maxDecoys ?? defaults.MAX_DECOYS),
    pendingPasswords: createPendingPasswords(clock, {
      max: defaults.MAX_PENDING_PASSWORDS,
      keepMs: defaults.PENDING_PASSWORD_MS,
    }),
    lockout: createLockout(clock, {
      threshold: defaults.LOCKOUT_THRESHOLD,
      lockMs: defaults.LOCKOUT_MS,
      ceiling: defaults.ACCOUNT_FAILURE_CEILING,
      paceMs: defaults.ACCOUNT_PACE_MS,
      familiarMs: defaults.FAMILIAR_CLIENT_MS,
    }),
    guesses: createGuessLog(options.codeGuessLimit ?? defaults.CODE_GUESS_LIMIT, defaults.MAX_GUESS_LOGS),
  }
  const limiters = {
    login: createRateLimiter(clock, options.loginRateLimit ?? defaults.LOGIN_RATE_LIMIT),
    mail: createRateLimiter(clock, options.mailRateLimit ?? defaults.MAIL_RATE_LIMIT),
    verify: createRateLimiter(clock, options.verifyRateLimit ?? defaults.VERIFY_RATE_LIMIT),
  }
  const scenarios = createScenarios(clock)
  const journal = createJournal(clock)
  const sinks = createSinks(clock, options.maxSinkBytes ?? defaults.MAX_SINK_BYTES)
  const build: OperationsContext['build'] = {
    ...(options.webRoot && { webRoot: options.webRoot }),
    override: null,
  }
  async function reset(): Promise<void> {
    await clearStore(domain.store)
    domain.decoys.clear()
    domain.pendingPasswords.clear()
    domain.lockout.clear()
    domain.guesses.clear()
    for (const piece of [mailbox, journal, limiters.login, limiters.mail, limiters.verify, sinks])
      piece.clear()
    build.override = null
    idp?.reset()
    pendingSignIns.clear()
    scenarios.clear()
    clock.reset()
    if (seeded) await seedAccounts(domain)
  }
  const idp = production ? null : createOpenIdProvider({ clock, controlToken: options.controlToken })
  const external =
    options.externalSignIn ??
    createExternalSignIn({ idp, oidc: options.oidc, clock, getDispatch: () => dispatch })
  const pendingSignIns = createPendingSignIns(clock)
  const ops: OperationsContext = {
    domain,
    limiters,
    mailbox,
    clock,
    scenarios,
    journal,
    sinks,
    build,
    reset,
    external,
    pendingSignIns,
    idp,
    controlToken: options.controlToken,
    publicOrigin: options.publicOrigin,
  }
  const persistence: Persistence | null = options.dataFile
    ? createPersistence(options.dataFile, domain, mailbox, clock, {
        production,
        ...(options.logError && { report: options.logError }),
      })
    : null
  const ready = (async () => {
    // The dummy hash a sign-in at an unknown address is checked against, made now: made by the first such
    // sign-in, it would cost that one call a second hash, and tell its address from a known one.
    await domain.hasher.dummyHash()
    if (persistence && (await persistence.load())) return
    await reset()
    await persistence?.save()
  })()
  const tables: MockCore['tables'] = {
    api: { ...createOperations(ops) },
    control: { ...createControlTable(ops) },
  }
  const dispatch: Dispatch = createDispatcher({
    routes: [
      ...createRoutes('api'),
      ...createRoutes('control').filter((route) => !production || !route.mockOnly),
    ],
    tables,
    authenticate: (token) =>
      verifyAccessToken(domain, token).then((check) =>
        check.ok
          ? { kind: 'valid', userId: check.userId, sessionId: check.sessionId }
          : { kind: 'rejected', code: check.code },
      ),
    scenarios: {
      take: (call) => scenarios.take(call),
      resolveEmail: (input, bearer) => resolveEmail(domain, input, bearer),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    // Production mode journals nothing: no one can read the journal there (no /__mock), and it would keep every
    // caller's address in memory for nothing.
    journal: production ? () => undefined : (entry, exchange) => journal.record(entry, exchange()),
    ...(options.log && { log: options.log }),
    ...(options.logError && { logError: options.logError }),
    corsOrigins: new Set(options.corsOrigins),
    ...(!production && {
      guardControl: (request: RawRequest, path: string) =>
        (path.startsWith('/idp')
          ? refuseIdpRequest
          : isDocsPath(path)
            ? refuseDocsRequest
            : refuseControlRequest)(request, {
          allowedHosts: [
            ...(options.allowedHosts ?? []),
            ...(options.publicOrigin ? [new URL(options.publicOrigin).hostname] : []),
          ],
          ...(options.controlToken !== undefined && { token: options.controlToken }),
        }),
    }),
  })
  // The purge runs before a call once the clock has moved PURGE_INTERVAL_MS (or back) since the last one.
  // The seeded unverified account stays, as the README promises it (development only: production seeds nothing).
  const keepUnverified = new Set<string>(seeded ? SEED_ACCOUNTS.map((account) => account.email) : [])
  let lastPurge = -Infinity
  let purging: Promise<void> | null = null
  async function purgeWhenDue(): Promise<void> {
    const now = clock.now()
    if (now - lastPurge < defaults.PURGE_INTERVAL_MS && now >= lastPurge) return purging ?? undefined
    lastPurge = now
    purging = purgeExpired(domain, {
      keepUnverified,
      ...(options.maxUnverifiedAccounts !== undefined && { maxUnverified: options.maxUnverifiedAccounts }),
    }).then((removed) => {
      if (removed > 0) persistence?.schedule()
    })
    await purging.finally(() => (purging = null))
  }
  return {
    async dispatch(request) {
      await ready
      await purgeWhenDue()
      const response = await dispatch(request)
      if (persistence && request.method !== 'GET') persistence.schedule()
      return response
    },
    ready,
    clock,
    ops,
    production,
    externalSignIn: external !== null,
    flush: async () => {
      await Promise.all([persistence?.flush(), outbox?.flush()])
    },
    tables,
  }
}

/** The account a call belongs to, for scenario scoping and the journal; undefined when none. */
function resolveEmail(
  domain: DomainContext,
  input: { body: unknown; request: { cookies: Record<string, string | undefined>; secure: boolean } },
  bearer: string | undefined,
): string | undefined {
  const body = (typeof input.body === 'object' && input.body !== null ? input.body : {}) as Record<
    string,
    unknown
  >
  if (typeof body.email === 'string') return normalizeEmail(body.email)
  const userId = (() => {
    if (bearer) return getSignedAccessTokenSubject(domain, bearer)
    // Only refreshToken's body has a refresh_token (every body is of its schema by now, no other field allowed).
    if (typeof body.refresh_token === 'string') {
      const record = findRefreshToken(domain, body.refresh_token)
      return record ? domain.store.sessions.findBy('id', record.sessionId)?.userId : undefined
    }
    if (typeof body.reset_token === 'string') {
      const hash = hashToken(body.reset_token)
      return domain.store.resetTokens.findFirst((q) => q.where({ hash }))?.userId
    }
    return getSessionByCookie(domain, readSessionCookie(input.request.cookies, input.request.secure))?.userId
  })()
  return userId ? getUserById(domain, userId)?.email : undefined
}
