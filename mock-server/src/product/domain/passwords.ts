// Password policy and hashing: 8 to 128 characters, no composition rules, not a common password;
// argon2id (memory-hard) with bounded concurrency. No clock, no I/O beyond the hash itself.
import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { BUILD_TIME, type BuildTime } from '../../shared/build-time.ts'
import {
  ARGON2_PARAMS,
  HASH_CONCURRENCY,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../shared/constants.ts'

const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  (dictionary['passwords-common'] as string[]).map((password) => password.toLowerCase()),
)

/** How many passwords the common-password list holds (the policy requires at least 3,000). */
export const COMMON_PASSWORD_COUNT = COMMON_PASSWORDS.size

/** Why a new password is refused, or null when it is acceptable. */
export function getPasswordProblem(
  password: string,
  context: { email?: string; name?: string } = {},
): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`
  const lowered = password.toLowerCase()
  if (COMMON_PASSWORDS.has(lowered)) return 'This password is too common. Choose one that is harder to guess.'
  if (context.email && lowered === context.email.toLowerCase())
    return 'Do not use your e-mail address as your password.'
  return null
}

export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(hashed: string, password: string): Promise<boolean>
  /** A hash of a random password, verified against when no account matches, so timing says nothing. */
  dummyHash(): Promise<string>
  /**
   * The hash of a password everybody knows (a seeded account's): made once per hasher (per server) and reused by
   * every reset, or made at build time for the compiled server. Never for a password a person chose.
   */
  hashPublished(password: string): Promise<string>
}

export interface HasherOptions {
  /** argon2id memory in KiB; lower only where a test says so explicitly. */
  memoryCost?: number
  timeCost?: number
  concurrency?: number
  /** The hashes the compiled server's build made (`BUILD_TIME`, the default); undefined where the sources run. */
  buildTime?: Pick<BuildTime, 'seedHashes' | 'dummyHash'>
}

export function createPasswordHasher(options: HasherOptions = {}): PasswordHasher {
  const { buildTime = BUILD_TIME } = options
  const params = {
    algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
    memoryCost: options.memoryCost ?? ARGON2_PARAMS.memoryCost,
    timeCost: options.timeCost ?? ARGON2_PARAMS.timeCost,
    parallelism: ARGON2_PARAMS.parallelism,
  }
  const limit = createLimiter(options.concurrency ?? HASH_CONCURRENCY)
  let dummy: Promise<string> | undefined
  /** Published passwords' hashes, made once for this hasher and reused by every reset. */
  const publishedHashes = new Map<string, Promise<string>>()
  // The build's hashes are made with ARGON2_PARAMS (scripts/build-server.ts): used only when this hasher's are those.
  const built =
    params.memoryCost === ARGON2_PARAMS.memoryCost && params.timeCost === ARGON2_PARAMS.timeCost
      ? buildTime
      : undefined
  const hasher: PasswordHasher = {
    hash: (password) => limit(() => hash(password, params)),
    verify: (hashed, password) => limit(() => verify(hashed, password).catch(() => false)),
    // Random enough to stand for "no password" too: an account whose unproven password was discarded.
    dummyHash: () =>
      (dummy ??= built
        ? Promise.resolve(built.dummyHash)
        : hasher.hash(`dummy-${randomBytes(32).toString('base64url')}`)),
    hashPublished(password) {
      const made = built?.seedHashes[password]
      if (made) return Promise.resolve(made)
      let hashed = publishedHashes.get(password)
      if (!hashed) {
        hashed = hasher.hash(password)
        // A failed hash is not kept: the next reset tries again.
        hashed.catch(() => publishedHashes.delete(password))
        publishedHashes.set(password, hashed)
      }
      return hashed
    },
  }
  return hasher
}

/** Runs at most `max` tasks at once; the rest wait in order. */
export function createLimiter(max: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve))
    running += 1
    try {
      return await task()
    } finally {
      running -= 1
      waiting.shift()?.()
    }
  }
}
