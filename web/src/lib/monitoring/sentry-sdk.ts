// The part of @sentry/react the app uses, named one by one (docs/decisions/012-first-load.md).
// A dynamic import of the whole namespace would keep every export in the chunk.
export {
  browserTracingIntegration,
  captureException,
  captureSession,
  init,
  setUser,
  startSession,
} from '@sentry/react'
