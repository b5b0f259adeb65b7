// What the build wrote into the app (web/vite.config.ts `define`). Unbuilt (unit tests, `vite` in dev), there is
// no build id, so there is nothing to compare a served build with; the version check stays off.

/** This build's id, or null when the code was not built. */
export const BUILD_ID: string | null = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : null

/** The DSN the build was given (SENTRY_DSN at build time), the fallback of config.json's `sentryDsn`. */
export const SENTRY_DSN_FALLBACK: string | null =
  typeof __SENTRY_DSN_FALLBACK__ === 'string' && __SENTRY_DSN_FALLBACK__ !== ''
    ? __SENTRY_DSN_FALLBACK__
    : null
