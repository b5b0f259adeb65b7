// What the build wrote into the app (web/vite.config.ts `define`). Unbuilt (unit tests, `vite` in dev), there is
// no build id, so there is nothing to compare a served build with; the version check stays off.

/** This build's id, or null when the code was not built. */
export const BUILD_ID: string | null = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : null

/** The DSN the build was given (SENTRY_DSN at build time), the fallback of config.json's `sentryDsn`. */
export const SENTRY_DSN_FALLBACK: string | null =
  typeof __SENTRY_DSN_FALLBACK__ === 'string' && __SENTRY_DSN_FALLBACK__ !== ''
    ? __SENTRY_DSN_FALLBACK__
    : null

/**
 * Where the app's own files are (`config.json`, the build's version file): the build's base (`/` unless Vite's `base`
 * says otherwise) on this page's origin. Not `document.baseURI`: a page opened at `/new/otp` has `/new/` as its
 * document base, where none of them is.
 * @example
 * new URL('config.json', appBaseUrl(window.location.origin)).href // 'https://app.example/config.json'
 */
export function appBaseUrl(origin: string): string {
  return new URL(import.meta.env.BASE_URL || '/', origin).href
}
