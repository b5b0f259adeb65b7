// The part of @sentry/react the app uses, named one by one (docs/decisions/012-first-load.md). error-reporting.ts
// imports this module, never the package's whole namespace: a dynamic import of the namespace keeps every export
// (session replay, the feedback widget, profiling...) in the chunk, while named exports let the build drop the rest.
export {
  browserTracingIntegration,
  captureException,
  captureSession,
  init,
  setUser,
  startSession,
} from '@sentry/react'
