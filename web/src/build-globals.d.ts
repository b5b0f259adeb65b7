// Values the build writes into the app (web/vite.config.ts `define`).
// Absent unbuilt, so read them only through lib/config/build-info.ts.

/** The id of this build, also written to builds/latest.json and builds/meta/<id>.json. */
declare const __BUILD_ID__: string
/** The error-reporting DSN given to the build (SENTRY_DSN), the fallback when config.json names none. */
declare const __SENTRY_DSN_FALLBACK__: string | null

/** What Vite writes into `import.meta.env` (only the field the app reads: lib/config/build-info.ts `appBaseUrl`). */
interface ImportMetaEnv {
  /** Vite's `base`: where the built app is served, `/` by default. */
  readonly BASE_URL: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
