/**
 * What the suite learns of a CONTRACT_TARGET's settings (docs/decisions/016-contract-target.md): a test that asks
 * for a server built with a setting runs against the target when the target's effective value is the same.
 * A mock server reports its own (GET /__mock/settings); a target without /__mock is taken at the documented
 * defaults (mock-server/src/shared/constants.ts, docs/decisions/004-tokens-sessions-codes.md). The CORS origins and
 * the proxy hops, which no answer reports, are what CONTRACT_TARGET_CORS_ORIGINS and CONTRACT_TARGET_TRUST_PROXY
 * declare. Whether it offers external sign-in, and at which public origin, its own authorize call shows.
 */
import type { components } from '#api/control.gen.ts'
import type { AppOptions } from '#mock-server/app.ts'
import * as defaults from '#mock-server/shared/constants.ts'
import type { WindowLimit } from '#mock-server/shared/rule-settings.ts'

type MockSettings = components['schemas']['MockSettings']

/** The options a target's settings can answer for; every other option describes a server the target is not. */
export const COMPARABLE_OPTIONS = [
  'accessTokenTtlMs',
  'refreshTokenTtlMs',
  'refreshGraceMs',
  'codeCooldownMs',
  'codeGuessLimit',
  'loginRateLimit',
  'mailRateLimit',
  'verifyRateLimit',
  'maxDecoys',
  'maxUnverifiedAccounts',
  'corsOrigins',
  'trustProxyHops',
  'publicOrigin',
] as const satisfies readonly (keyof AppOptions)[]

export type ComparableOption = (typeof COMPARABLE_OPTIONS)[number]
/** A setting's value; null for a feature the target does not offer (no external sign-in: no public origin). */
export type SettingValues = {
  [K in ComparableOption]?: number | string | null | WindowLimit | readonly string[]
}

export interface TargetSettings {
  /** Where they come from, as a reason names it: `GET /__mock/settings`, `the documented defaults`. */
  source: string
  /** The known values; a missing one is unknown. */
  values: SettingValues
  /** Options taken at their default because nothing declared them (a reason that differs says how to declare). */
  assumed?: readonly ComparableOption[]
}

const limitOf = (limit: { max: number; window_ms: number }): WindowLimit => ({
  max: limit.max,
  windowMs: limit.window_ms,
})

/** The settings a GET /__mock/settings answer states, by option name. */
export function settingsFromAnswer(body: MockSettings): SettingValues {
  return {
    accessTokenTtlMs: body.access_token_ttl_ms,
    refreshTokenTtlMs: body.refresh_token_ttl_ms,
    refreshGraceMs: body.refresh_grace_ms,
    codeCooldownMs: body.code_cooldown_ms,
    codeGuessLimit: limitOf(body.code_guess_limit),
    loginRateLimit: limitOf(body.login_rate_limit),
    mailRateLimit: limitOf(body.mail_rate_limit),
    verifyRateLimit: limitOf(body.verify_rate_limit),
    maxDecoys: body.max_decoys,
    maxUnverifiedAccounts: body.max_unverified_accounts,
  }
}

/**
 * The documented defaults, for a target without /__mock. The access token's lifetime is left unknown: a deployment
 * may shorten it (docs/contract-suite.md), and the tokens it issues say it better than a default.
 */
export const DOCUMENTED_DEFAULTS: TargetSettings = {
  source: 'the documented defaults, as the target has no /__mock',
  values: {
    refreshTokenTtlMs: defaults.REFRESH_TOKEN_TTL_MS,
    refreshGraceMs: defaults.REFRESH_GRACE_MS,
    codeCooldownMs: defaults.CODE_COOLDOWN_MS,
    codeGuessLimit: defaults.CODE_GUESS_LIMIT,
    loginRateLimit: defaults.LOGIN_RATE_LIMIT,
    mailRateLimit: defaults.MAIL_RATE_LIMIT,
    verifyRateLimit: defaults.VERIFY_RATE_LIMIT,
    maxDecoys: defaults.MAX_DECOYS,
    maxUnverifiedAccounts: defaults.MAX_UNVERIFIED_ACCOUNTS,
  },
}

/** What the run declares of the target's settings that no answer reports; undefined where it declares nothing. */
export interface DeclaredSettings {
  corsOrigins?: readonly string[] | undefined
  trustProxyHops?: number | undefined
  publicOrigin?: string | undefined
}

/**
 * The target's settings: its GET /__mock/settings when /__mock answers (`noControl` null), the documented defaults
 * when it has no /__mock (`production`), else none known; with what the run declares (`declared`). Undeclared, the
 * CORS origins are unknown, and the proxy hops are the server's default, none: a target that trusts a proxy must be
 * declared so, or its checks of X-Forwarded-For fail.
 */
export async function readTargetSettings(
  target: { baseUrl: string; headers: Record<string, string>; noControl: string | null; production: boolean },
  fetch: typeof globalThis.fetch,
  declared: DeclaredSettings = DECLARED_SETTINGS,
): Promise<TargetSettings> {
  const read = await readReported(target, fetch)
  const external = await readExternalSignIn(target, fetch)
  // The public origin is the declared one, else the target's own URL: never what the target says of itself.
  const publicOrigin =
    external === undefined
      ? undefined
      : external
        ? (declared.publicOrigin ?? new URL(target.baseUrl).origin)
        : null
  const notes = [
    ...(declared.corsOrigins === undefined
      ? []
      : ['its CORS origins as CONTRACT_TARGET_CORS_ORIGINS declares']),
    ...(declared.trustProxyHops === undefined
      ? []
      : ['its proxy hops as CONTRACT_TARGET_TRUST_PROXY declares']),
  ]
  return {
    source: [read.source, ...notes].join('; '),
    values: {
      ...read.values,
      ...(publicOrigin !== undefined && { publicOrigin }),
      ...(declared.corsOrigins !== undefined && { corsOrigins: declared.corsOrigins }),
      trustProxyHops: declared.trustProxyHops ?? 0,
    },
    ...((declared.trustProxyHops === undefined || (external && declared.publicOrigin === undefined)) && {
      assumed: [
        ...(declared.trustProxyHops === undefined ? (['trustProxyHops'] as const) : []),
        ...(external && declared.publicOrigin === undefined ? (['publicOrigin'] as const) : []),
      ],
    }),
  }
}

/** A state long enough for the schema (16 or more characters); the probe's sign-in is never completed. */
const PROBE_STATE = 'settings-probe-0123456789'

/**
 * Whether the target offers external sign-in, from its own authorize call: true for a redirect (302), false for the
 * documented 404 `external_sign_in_unavailable`; undefined for any other answer or none, which tells nothing.
 * @example await offersExternalSignIn({ baseUrl: 'http://127.0.0.1:4020', headers: {} }, fetch) // true
 */
export async function readExternalSignIn(
  target: { baseUrl: string; headers: Record<string, string> },
  fetch: typeof globalThis.fetch,
): Promise<boolean | undefined> {
  const path = `/api/auth/external/authorize?state=${PROBE_STATE}&redirect_uri=/callback`
  try {
    const response = await fetch(`${target.baseUrl}${path}`, { headers: target.headers, redirect: 'manual' })
    if (response.status === 302) return (await response.body?.cancel(), true)
    const body = (await response.json().catch(() => ({}))) as { error?: unknown }
    return response.status === 404 && body.error === 'external_sign_in_unavailable' ? false : undefined
  } catch {
    return undefined
  }
}

/**
 * CONTRACT_TARGET_PUBLIC_ORIGIN: the origin a target names as its own to a provider (its `--public-origin`), which
 * no answer can vouch for. Unset, the target's own URL is taken, so a redirect_uri elsewhere fails the checks rather
 * than skipping them.
 * @example readPublicOriginDeclared('https://app.example') // 'https://app.example'
 */
export function readPublicOriginDeclared(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined
  let parsed: URL | undefined
  try {
    parsed = new URL(value.trim())
  } catch {
    parsed = undefined
  }
  if (parsed?.origin !== value.trim())
    throw new Error(
      `CONTRACT_TARGET_PUBLIC_ORIGIN is the origin the target was started with (--public-origin), such as https://app.example, not ${JSON.stringify(value)}.`,
    )
  return parsed.origin
}

export const DECLARED_PUBLIC_ORIGIN = readPublicOriginDeclared(process.env.CONTRACT_TARGET_PUBLIC_ORIGIN)

async function readReported(
  target: { baseUrl: string; headers: Record<string, string>; noControl: string | null; production: boolean },
  fetch: typeof globalThis.fetch,
): Promise<TargetSettings> {
  if (target.production) return DOCUMENTED_DEFAULTS
  if (target.noControl !== null) return { source: 'none known, as its /__mock cannot be used', values: {} }
  const response = await fetch(`${target.baseUrl}/__mock/settings`, {
    headers: { ...target.headers, Accept: 'application/json' },
  })
  if (response.status !== 200) {
    await response.body?.cancel()
    return { source: `none known, as GET /__mock/settings answered ${response.status}`, values: {} }
  }
  return {
    source: 'GET /__mock/settings',
    values: settingsFromAnswer((await response.json()) as MockSettings),
  }
}

/**
 * CONTRACT_TARGET_CORS_ORIGINS: the origins a target was started with (`--cors-origin`), which no answer reports;
 * `none` for a target started without. Unset, they are unknown (docs/contract-suite.md, "The target's settings").
 * @example readCorsOrigins('https://app.example') // ['https://app.example']
 */
export function readCorsOrigins(value: string | undefined): readonly string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined
  if (value.trim() === 'none') return []
  return value.split(',').map((entry) => {
    const origin = entry.trim()
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {
      parsed = undefined
    }
    if (parsed?.origin !== origin)
      throw new Error(
        `CONTRACT_TARGET_CORS_ORIGINS is a comma-separated list of origins (https://app.example) or none, not ${JSON.stringify(value)}.`,
      )
    return origin
  })
}

export const DECLARED_CORS_ORIGINS = readCorsOrigins(process.env.CONTRACT_TARGET_CORS_ORIGINS)

/**
 * CONTRACT_TARGET_TRUST_PROXY: the proxy hops a target was started with (`--trust-proxy <hops>`), which no answer
 * reports; 0 for none. Unset, the target is taken at the server's default, none (readTargetSettings).
 * @example readTrustProxy('1') // 1
 */
export function readTrustProxy(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  if (!/^\d{1,2}$/.test(value.trim()))
    throw new Error(
      `CONTRACT_TARGET_TRUST_PROXY is the number of proxy hops the target trusts (its --trust-proxy), 0 for none, not ${JSON.stringify(value)}.`,
    )
  return Number(value.trim())
}

export const DECLARED_TRUST_PROXY = readTrustProxy(process.env.CONTRACT_TARGET_TRUST_PROXY)

const DECLARED_SETTINGS: DeclaredSettings = {
  corsOrigins: DECLARED_CORS_ORIGINS,
  trustProxyHops: DECLARED_TRUST_PROXY,
  publicOrigin: DECLARED_PUBLIC_ORIGIN,
}

/** How the suite learns a setting no answer reports, named in the reason when it is unknown. */
const HOW_TO_DECLARE: Partial<Record<ComparableOption, string>> = {
  publicOrigin:
    'its authorize call (GET /api/auth/external/authorize) tells whether it offers external sign-in, at its own URL unless CONTRACT_TARGET_PUBLIC_ORIGIN declares another origin',
  corsOrigins: 'CONTRACT_TARGET_CORS_ORIGINS declares them',
  trustProxyHops: 'no proxy hops taken, as CONTRACT_TARGET_TRUST_PROXY declares none',
}

const describeValue = (value: unknown): string => {
  if (value === null) return 'none'
  if (typeof value === 'number' || typeof value === 'string') return String(value)
  if (Array.isArray(value)) return value.length === 0 ? 'none' : [...value].sort().join(', ')
  if (value && typeof value === 'object' && 'max' in value && 'windowMs' in value)
    return `${String(value.max)} per ${String(value.windowMs)} ms`
  return JSON.stringify(value) ?? String(value)
}

const sameValue = (a: unknown, b: unknown): boolean =>
  typeof a === 'object' && a !== null && typeof b === 'object' && b !== null
    ? describeValue(a) === describeValue(b) && Object.keys(a).length === Object.keys(b).length
    : a === b

export interface SettingsComparison {
  /** `refreshGraceMs 10000`: the options asked for that the target has. */
  matched: string[]
  /** Why the target is not the server asked for, naming each option, both values and the source; null when it is. */
  differs: string | null
}

/**
 * Each comparable option of `options` against the target's value.
 * @example compareSettings({ refreshGraceMs: 10_000 }, await target.settings()) // { matched: ['refreshGraceMs 10000'], differs: null }
 */
export function compareSettings(
  options: Partial<Record<ComparableOption, unknown>>,
  settings: TargetSettings,
): SettingsComparison {
  const matched: string[] = []
  const differs: string[] = []
  const hints: string[] = []
  for (const name of COMPARABLE_OPTIONS) {
    if (!(name in options) || options[name] === undefined) continue
    const wanted = options[name]
    const effective = settings.values[name]
    if (effective !== undefined && sameValue(wanted, effective))
      matched.push(`${name} ${describeValue(wanted)}`)
    else {
      const hint = effective == null || settings.assumed?.includes(name) ? HOW_TO_DECLARE[name] : undefined
      if (hint) hints.push(hint)
      differs.push(
        `${name} ${describeValue(wanted)} where the target's is ${
          effective === undefined ? 'unknown' : describeValue(effective)
        }`,
      )
    }
  }
  return {
    matched,
    differs:
      differs.length === 0
        ? null
        : `needs a server built with ${differs.join(', ')} (${[settings.source, ...hints].join('; ')})`,
  }
}
