// The runtime configuration (issue 3): `config.json` served beside the app, read once at start. Every field has a
// documented fallback, so a missing or broken file still starts the app:
//   apiBase      ''             (same origin)
//   environment  'development'  (spec 9: the error-reporting environment defaults to development)
//   sentryDsn    null           (error reporting off)
//   recorder     null           (session recorder off)
//   mock         false          (true only when the mock server serves the app)
//   toasts       'top-center'   (spec 9, first reading; 'top-right-queue' is the second reading: top-right, at most 4
//                                shown, the rest queued, 5000 ms each)
//   externalSignIn  true        (false hides "Continue with single sign-on": the server has no identity provider, as
//                                the mock server in production mode says; only an explicit false hides it, so a
//                                missing file keeps the button, and the server still refuses when it has none)

export interface RecorderConfig {
  projectKey: string
  host: string
}

/** The two readings of spec 9's toasts. */
export type ToastMode = 'top-center' | 'top-right-queue'

export const TOAST_MODES: readonly ToastMode[] = ['top-center', 'top-right-queue']

export interface RuntimeConfig {
  apiBase: string
  environment: string
  sentryDsn: string | null
  recorder: RecorderConfig | null
  mock: boolean
  toasts: ToastMode
  externalSignIn: boolean
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  apiBase: '',
  environment: 'development',
  sentryDsn: null,
  recorder: null,
  mock: false,
  toasts: 'top-center',
  externalSignIn: true,
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null

function parseRecorder(value: unknown): RecorderConfig | null {
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  const projectKey = text(record.projectKey)
  const host = text(record.host)
  return projectKey && host ? { projectKey, host } : null
}

/** Pure: reads what it can, falls back field by field. */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_RUNTIME_CONFIG
  const record = raw as Record<string, unknown>
  return {
    apiBase: (text(record.apiBase) ?? DEFAULT_RUNTIME_CONFIG.apiBase).replace(/\/+$/, ''),
    environment: text(record.environment) ?? DEFAULT_RUNTIME_CONFIG.environment,
    sentryDsn: text(record.sentryDsn),
    recorder: parseRecorder(record.recorder),
    mock: record.mock === true,
    toasts: TOAST_MODES.find((mode) => mode === record.toasts) ?? DEFAULT_RUNTIME_CONFIG.toasts,
    externalSignIn: record.externalSignIn !== false,
  }
}

/**
 * Fetches `config.json` once; any failure gives the fallbacks.
 * @example
 * const config = await loadRuntimeConfig((request) => fetch(request), new URL('/config.json', location.href).href)
 */
export async function loadRuntimeConfig(
  fetch: (input: Request) => Promise<Response>,
  url: string,
): Promise<RuntimeConfig> {
  try {
    const response = await fetch(
      new Request(url, { headers: { Accept: 'application/json' }, cache: 'no-store' }),
    )
    return response.ok ? parseRuntimeConfig(await response.json()) : DEFAULT_RUNTIME_CONFIG
  } catch {
    return DEFAULT_RUNTIME_CONFIG
  }
}
