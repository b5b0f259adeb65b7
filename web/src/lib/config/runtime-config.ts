// The runtime configuration (docs/behaviour.md: Routes): `config.json` beside the app, read once at start.
// Every field has a fallback, so a missing or broken file still starts the app:
//   apiBase      ''             (same origin)
//   environment  'development'  (docs/behaviour.md: Constants: the error-reporting environment defaults to development)
//   sentryDsn    null           (error reporting off)
//   recorder     null           (session recorder off)
//   mock         false          (true only when the mock server serves the app)
//   toasts       'top-center'   (docs/behaviour.md: Constants, first reading; 'top-right-queue' is the second)
//   externalSignIn  true        (only an explicit false hides "Continue with single sign-on". The server still
//                                refuses when it has no identity provider.)
import { INLINE_CONFIG_ID } from '#api/runtime-config.ts'

export interface RecorderConfig {
  projectKey: string
  host: string
}

/** The two readings of the toasts (docs/behaviour.md: Constants). */
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

/**
 * Fills `{origin}`, `{protocol}` and `{host}` from the page's address.
 * The mock server cannot know the name the browser used, so it writes these placeholders.
 */
function fillOrigin(value: string | null, origin: string | undefined): string | null {
  if (value === null || origin === undefined) return value
  const url = new URL(origin)
  return value
    .replaceAll('{origin}', url.origin)
    .replaceAll('{protocol}', url.protocol)
    .replaceAll('{host}', url.host)
}

function parseRecorder(value: unknown, origin?: string): RecorderConfig | null {
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  const projectKey = text(record.projectKey)
  const host = fillOrigin(text(record.host), origin)
  return projectKey && host ? { projectKey, host } : null
}

/** Pure: reads what it can, falls back field by field; `origin` fills the `{origin}` placeholders. */
export function parseRuntimeConfig(raw: unknown, origin?: string): RuntimeConfig {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_RUNTIME_CONFIG
  const record = raw as Record<string, unknown>
  return {
    apiBase: (text(record.apiBase) ?? DEFAULT_RUNTIME_CONFIG.apiBase).replace(/\/+$/, ''),
    environment: text(record.environment) ?? DEFAULT_RUNTIME_CONFIG.environment,
    sentryDsn: fillOrigin(text(record.sentryDsn), origin),
    recorder: parseRecorder(record.recorder, origin),
    mock: record.mock === true,
    toasts: TOAST_MODES.find((mode) => mode === record.toasts) ?? DEFAULT_RUNTIME_CONFIG.toasts,
    externalSignIn: record.externalSignIn !== false,
  }
}

/**
 * The runtime configuration inlined in the page, read as config.json is.
 * Null when there is none or it cannot be read; the app then fetches config.json.
 * @example
 * const config = readInlineRuntimeConfig(document, location.origin) ?? (await loadRuntimeConfig(fetch, url))
 */
export function readInlineRuntimeConfig(
  doc: Pick<Document, 'getElementById'>,
  origin: string,
): RuntimeConfig | null {
  const text = doc.getElementById(INLINE_CONFIG_ID)?.textContent
  if (!text) return null
  try {
    return parseRuntimeConfig(JSON.parse(text), origin)
  } catch {
    return null
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
    return response.ok
      ? parseRuntimeConfig(await response.json(), new URL(url).origin)
      : DEFAULT_RUNTIME_CONFIG
  } catch {
    return DEFAULT_RUNTIME_CONFIG
  }
}
