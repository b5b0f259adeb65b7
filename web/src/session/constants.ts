// The client's session constants, named once; each cites the part of docs/behaviour.md it comes from.

/** Token refresh interval: 300 seconds (docs/behaviour.md: Session, "Periodic refresh"). */
export const REFRESH_INTERVAL_MS = 300_000

/** Browser session storage keys (docs/behaviour.md: Stored state, Constants). */
export const ACCESS_TOKEN_KEY = 'accessToken'
export const REFRESH_TOKEN_KEY = 'refreshToken'
export const SERVICE_TOKEN_KEY = 'serviceToken'

/** The cross-tab coordination names (ADR 006, docs/decisions/006-web-app.md: duplicated tabs); not product constants. */
export const REFRESH_LOCK_NAME = 'auth-shell:refresh'
export const ROTATION_CHANNEL_NAME = 'auth-shell:token-rotation'

/** How long a log-out waits for the server before clearing the local session anyway. Our choice, not the spec's. */
export const LOGOUT_TIMEOUT_MS = 10_000
