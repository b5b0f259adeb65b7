// What the build wrote into the app (web/vite.config.ts `define`).
// Unbuilt there is no build id, so the version check stays off.

/** This build's id, or null when the code was not built. */
export const BUILD_ID: string | null = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : null

/** The DSN the build was given (SENTRY_DSN at build time), the fallback of config.json's `sentryDsn`. */
export const SENTRY_DSN_FALLBACK: string | null =
  typeof __SENTRY_DSN_FALLBACK__ === 'string' && __SENTRY_DSN_FALLBACK__ !== ''
    ? __SENTRY_DSN_FALLBACK__
    : null

/**
 * Where the app's own files are: the build's base on this page's origin.
 * Not `document.baseURI`, which is `/new/` on a page opened at `/new/otp`.
 * @example
 * new URL('config.json', appBaseUrl(window.location.origin)).href // 'https://app.example/config.json'
 */
export function appBaseUrl(origin: string): string {
  return new URL(import.meta.env.BASE_URL || '/', origin).href
}
