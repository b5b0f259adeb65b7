// The product: the domain and the operations of openapi.yaml, but for external sign-in's two (external-sign-in/).
// It offers the pipeline and the other features only what they need, so none imports its insides.
import type { operations as ApiOperations } from '#api/openapi.gen.ts'
import type { AuthState, OperationTable } from '../pipeline/types.ts'
import * as defaults from '../shared/constants.ts'
import { createRandomPool } from '../shared/crypto.ts'
import { createTokenKeys } from './domain/token-keys.ts'
import { resolveEmail } from './call-owner.ts'
import type { DomainConfig, DomainContext, MailSender } from './domain/context.ts'
import { signInExternally } from './domain/external-sign-in.ts'
import { memoryCounters, type CounterBackend } from './domain/counters.ts'
import type { GuessLimit } from './domain/guess-log.ts'
import { createKeyedLock } from './domain/locks.ts'
import { createPasswordHasher, type HasherOptions } from './domain/passwords.ts'
import type { RateLimit } from './domain/rate-limit.ts'
import { SEED_ACCOUNTS, seedAccounts } from './domain/seed.ts'
import { createMemoryStore } from './storage/memory.ts'
import type { ProductStore } from './storage/port.ts'
import type { UserRecord } from './storage/records.ts'
import { getUserById } from './domain/users.ts'
import { verifyAccessToken } from './domain/tokens.ts'
import { createAccountOperations } from './operations/account.ts'
import { createAuthOperations } from './operations/auth.ts'
import { createBuildOperations } from './operations/build.ts'
import type { BuildFileReader, ServedBuild } from './operations/context.ts'
import { createSessionOperations } from './operations/session.ts'
import { signIn } from './operations/sign-in.ts'
import { createPurgeSchedule } from './purge-schedule.ts'
import { productSettings } from './settings.ts'
import type { ControlClock } from '../shared/control-clock.ts'

/** The product's settings, as MockOptions (core.ts) names them. */
export interface ProductOptions {
  production: boolean
  /** Where the records live (compose/state-store.ts); memory when not given. */
  store?: ProductStore | undefined
  /** Where the rules' counters live (domain/counters.ts); this process's memory when not given. */
  counters?: CounterBackend | undefined
  seed?: boolean | undefined
  accessTokenTtlMs?: number | undefined
  refreshTokenTtlMs?: number | undefined
  refreshGraceMs?: number | undefined
  codeCooldownMs?: number | undefined
  loginRateLimit?: RateLimit | undefined
  mailRateLimit?: RateLimit | undefined
  verifyRateLimit?: RateLimit | undefined
  codeGuessLimit?: GuessLimit | undefined
  maxDecoys?: number | undefined
  hasher?: HasherOptions | undefined
  maxUnverifiedAccounts?: number | undefined
  webRoot?: string | undefined
  /** Reads the served build's manifest files (app.ts hands compose/node-ports.ts). */
  readBuildFile?: BuildFileReader | undefined
}

export type ProductOperations = Omit<ApiOperations, 'authorizeExternal' | 'exchangeCallback'>

function createDomain(
  options: ProductOptions,
  counters: CounterBackend,
  clock: ControlClock,
  mailbox: MailSender,
): DomainContext {
  const random = createRandomPool()
  const config: DomainConfig = {
    accessTokenTtlMs: options.accessTokenTtlMs ?? defaults.ACCESS_TOKEN_TTL_MS,
    refreshTokenTtlMs: options.refreshTokenTtlMs ?? defaults.REFRESH_TOKEN_TTL_MS,
    refreshGraceMs: options.refreshGraceMs ?? defaults.REFRESH_GRACE_MS,
    codeTtlMs: defaults.CODE_TTL_MS,
    codeCooldownMs: options.codeCooldownMs ?? defaults.CODE_COOLDOWN_MS,
    codeMaxAttempts: defaults.CODE_MAX_ATTEMPTS,
    secret: random.token(),
  }
  return {
    store: options.store ?? createMemoryStore(),
    clock,
    locks: createKeyedLock(),
    hasher: createPasswordHasher(options.hasher),
    mailbox,
    config,
    decoys: counters.decoys(options.maxDecoys ?? defaults.MAX_DECOYS),
    pendingPasswords: counters.pendingPasswords(clock, {
      max: defaults.MAX_PENDING_PASSWORDS,
      keepMs: defaults.PENDING_PASSWORD_MS,
    }),
    lockout: counters.lockout(clock, {
      threshold: defaults.LOCKOUT_THRESHOLD,
      lockMs: defaults.LOCKOUT_MS,
      ceiling: defaults.ACCOUNT_FAILURE_CEILING,
      paceMs: defaults.ACCOUNT_PACE_MS,
      familiarMs: defaults.FAMILIAR_CLIENT_MS,
    }),
    guesses: counters.guessLog(options.codeGuessLimit ?? defaults.CODE_GUESS_LIMIT, defaults.MAX_GUESS_LOGS),
    random,
    tokenKeys: createTokenKeys(),
  }
}

export function createProduct(
  options: ProductOptions,
  deps: { clock: ControlClock; mailbox: MailSender; onPurged(): void },
) {
  const seeded = options.seed ?? !options.production
  const counters = options.counters ?? memoryCounters
  const domain = createDomain(options, counters, deps.clock, deps.mailbox)
  const limiters = {
    login: counters.rateLimiter('login', deps.clock, options.loginRateLimit ?? defaults.LOGIN_RATE_LIMIT),
    mail: counters.rateLimiter('mail', deps.clock, options.mailRateLimit ?? defaults.MAIL_RATE_LIMIT),
    verify: counters.rateLimiter('verify', deps.clock, options.verifyRateLimit ?? defaults.VERIFY_RATE_LIMIT),
  }
  const build: ServedBuild = {
    ...(options.webRoot && { webRoot: options.webRoot }),
    readBuildFile: options.readBuildFile,
    override: null,
  }
  // The account an access token's check read with its session, kept for the call it authorized, so that call
  // reads the database once (docs/benchmarks.md, "Round trips"). Keyed by the call's own AuthState.
  const accounts = new WeakMap<AuthState, UserRecord | null>()
  const accountOf = async (auth: AuthState): Promise<UserRecord | null> => {
    if (accounts.has(auth)) return accounts.get(auth) ?? null
    if (auth.kind !== 'valid') throw new Error('Failed to read the account: the call was not authenticated.')
    return getUserById(domain, auth.userId)
  }
  const context = { domain, limiters, mailbox: deps.mailbox, build, accountOf }
  const operations: OperationTable<ProductOperations> = {
    ...createSessionOperations(context),
    ...createAuthOperations(context),
    ...createAccountOperations(context),
    ...createBuildOperations(context),
  }
  return {
    ...context,
    operations,
    /** The figures the rules run on, defaults filled in (GET /__mock/settings). */
    settings: productSettings(domain.config, options),
    /** Empties what the product holds; `seed` (after the clock's reset) brings the seed back. */
    async clear(): Promise<void> {
      await domain.store.clear()
      await domain.decoys.clear()
      for (const piece of [domain.pendingPasswords, domain.lockout, domain.guesses]) await piece.clear()
      for (const limiter of Object.values(limiters)) await limiter.clear()
      build.override = null
    },
    seed: async () => (seeded ? seedAccounts(domain) : undefined),
    async authenticate(token: string): Promise<AuthState> {
      const check = await verifyAccessToken(domain, token)
      if (!check.ok) return { kind: 'rejected', code: check.code }
      const auth: AuthState = { kind: 'valid', userId: check.userId, sessionId: check.sessionId }
      accounts.set(auth, check.user)
      return auth
    },
    resolveEmail: (input: Parameters<typeof resolveEmail>[1], bearer: string | undefined) =>
      resolveEmail(domain, input, bearer),
    signInExternally: async (identity: { email: string; name: string }) =>
      signIn(domain, await signInExternally(domain, identity)),
    purgeWhenDue: createPurgeSchedule(domain, {
      keepUnverified: new Set<string>(seeded ? SEED_ACCOUNTS.map((account) => account.email) : []),
      maxUnverified: options.maxUnverifiedAccounts,
      onPurged: deps.onPurged,
    }),
  }
}

export type Product = ReturnType<typeof createProduct>
