// The client's session constants, named once; each cites the part of docs/behaviour.md it comes from.

/** Token refresh interval: 300 seconds (docs/behaviour.md: Session, "Periodic refresh"). */
export const REFRESH_INTERVAL_MS = 300_000

/** Page-reload guard window for chunk-load errors: 10,000 ms (docs/behaviour.md: Session, Messages, Constants). */
export const RELOAD_GUARD_MS = 10_000

/** New-version check: every 3,600,000 ms (docs/behaviour.md: Session, Constants). */
export const VERSION_CHECK_MS = 3_600_000

/** Browser session storage keys (docs/behaviour.md: Stored state, Constants). */
export const ACCESS_TOKEN_KEY = 'accessToken'
export const REFRESH_TOKEN_KEY = 'refreshToken'
export const SERVICE_TOKEN_KEY = 'serviceToken'

/** Statuses the HTTP client retries once, for methods without a body only (docs/behaviour.md: Calls). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504]

/** Methods the HTTP client treats as carrying a body; never re-sent (docs/behaviour.md: Calls). */
export const BODY_METHODS: readonly string[] = ['PATCH', 'POST', 'PUT', 'DELETE']

/** Toasts: top-center, 6000 ms for every kind, promise toasts without time-out (docs/behaviour.md: Constants, first reading). */
export const TOAST_DURATION_MS = 6000
/** Pointer-touch pause debounce of the toasts (docs/behaviour.md: Constants, first reading). */
export const TOAST_TOUCH_PAUSE_MS = 2000

/** The cross-tab coordination names (ADR 006, docs/decisions/006-web-app.md: duplicated tabs); not product constants. */
export const REFRESH_LOCK_NAME = 'auth-shell:refresh'
export const ROTATION_CHANNEL_NAME = 'auth-shell:token-rotation'

/** How long a log-out waits for the server before clearing the local session anyway (a choice of ours, not a product constant). */
export const LOGOUT_TIMEOUT_MS = 10_000
