// --access-ttl and --refresh-ttl (docs/mock-server.md, Flags): each read between its bounds, and the start banner's
// note of a lifetime other than the default, so a server started for the contract suite's real expiry says so.
import { parseDuration } from '#api/control-values.ts'
import {
  ACCESS_TOKEN_TTL_MS,
  MAX_ACCESS_TOKEN_TTL_MS,
  MAX_REFRESH_TOKEN_TTL_MS,
  MIN_TOKEN_TTL_MS,
  REFRESH_TOKEN_TTL_MS,
} from '../shared/constants.ts'

export type LifetimeFlag = '--access-ttl' | '--refresh-ttl'

/** Each flag's upper bound, and what a longer lifetime would cost (shared/constants.ts says why these bounds). */
const BOUNDS: Record<LifetimeFlag, { maxMs: number; why: string }> = {
  '--access-ttl': {
    maxMs: MAX_ACCESS_TOKEN_TTL_MS,
    why: 'an access token cannot be revoked before it expires',
  },
  '--refresh-ttl': {
    maxMs: MAX_REFRESH_TOKEN_TTL_MS,
    why: 'a session, and a stolen session cookie with it, would last that long',
  },
}

const UNITS = [
  ['d', 24 * 60 * 60_000],
  ['h', 60 * 60_000],
  ['m', 60_000],
  ['s', 1_000],
] as const

/**
 * A duration in the largest unit that states it exactly, as the flags take it.
 * @example formatDuration(30_000) // '30s'; formatDuration(90 * 60_000) // '90m'; formatDuration(1_500) // '1500ms'
 */
export function formatDuration(ms: number): string {
  const unit = UNITS.find(([, size]) => ms >= size && ms % size === 0)
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`
}

/**
 * A token lifetime, in milliseconds. Tokens carry their expiry in whole seconds, so a lifetime under one second
 * makes every token expired when it is issued; one above the flag's bound is refused too.
 * @example parseLifetime('30s', '--access-ttl') // 30000; parseLifetime('2h', '--access-ttl') // throws
 */
export function parseLifetime(value: string, flag: LifetimeFlag): number {
  let ms: number
  try {
    ms = parseDuration(value)
  } catch (cause) {
    throw new Error(
      `Failed to start: ${flag} ${(cause as Error).message.replace(/^Failed to read duration /, '')}`,
      { cause },
    )
  }
  if (ms < MIN_TOKEN_TTL_MS)
    throw new Error(
      `Failed to start: ${flag} must be at least ${formatDuration(MIN_TOKEN_TTL_MS)}: a shorter lifetime issues tokens already expired.`,
    )
  const { maxMs, why } = BOUNDS[flag]
  if (ms > maxMs)
    throw new Error(
      `Failed to start: ${flag} must be at most ${formatDuration(maxMs)}, not ${formatDuration(ms)}: ${why}.`,
    )
  return ms
}

/**
 * What the start banner says of the lifetimes: one note for each that is not the default, none for the defaults.
 * @example lifetimeNotes({ accessTokenTtlMs: 30_000 }) // ['access tokens live 30s']
 */
export function lifetimeNotes(durations: {
  accessTokenTtlMs?: number
  refreshTokenTtlMs?: number
}): string[] {
  const { accessTokenTtlMs = ACCESS_TOKEN_TTL_MS, refreshTokenTtlMs = REFRESH_TOKEN_TTL_MS } = durations
  return [
    ...(accessTokenTtlMs !== ACCESS_TOKEN_TTL_MS
      ? [`access tokens live ${formatDuration(accessTokenTtlMs)}`]
      : []),
    ...(refreshTokenTtlMs !== REFRESH_TOKEN_TTL_MS
      ? [`refresh families live ${formatDuration(refreshTokenTtlMs)}`]
      : []),
  ]
}
