// The only module that touches the browser's sessionStorage: the token keys of docs/behaviour.md: Stored state, Constants,
// plus the few other per-tab values the app keeps (SSO state, reload guard, auth-flow handoff).
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, SERVICE_TOKEN_KEY } from './constants.ts'

export interface TokenPair {
  accessToken: string
  refreshToken: string
  serviceToken?: string | null
}

export interface TokenStorage {
  /** Both tokens, or null unless access and refresh tokens are both stored (docs/behaviour.md: Session). */
  getTokens(): TokenPair | null
  getAccessToken(): string | null
  getRefreshToken(): string | null
  hasTokens(): boolean
  /** Stores the pair; the service token only when given (a refresh does not rotate it). */
  setTokens(tokens: TokenPair): void
  /** Removes all three stored values (docs/behaviour.md: Session). */
  clear(): void
}

/**
 * The token keys of docs/behaviour.md: Stored state over an injected Storage.
 * @example
 * const tokens = createTokenStorage(getSessionStorage())
 * tokens.setTokens({ accessToken: 'a', refreshToken: 'r', serviceToken: 's' })
 * tokens.hasTokens() // true
 */
export function createTokenStorage(storage: Storage): TokenStorage {
  const read = (key: string) => {
    const value = storage.getItem(key)
    return value === null || value === '' ? null : value
  }
  const getTokens = (): TokenPair | null => {
    const accessToken = read(ACCESS_TOKEN_KEY)
    const refreshToken = read(REFRESH_TOKEN_KEY)
    if (accessToken === null || refreshToken === null) return null
    return { accessToken, refreshToken, serviceToken: read(SERVICE_TOKEN_KEY) }
  }
  return {
    getTokens,
    getAccessToken: () => read(ACCESS_TOKEN_KEY),
    getRefreshToken: () => read(REFRESH_TOKEN_KEY),
    hasTokens: () => getTokens() !== null,
    setTokens(tokens) {
      storage.setItem(ACCESS_TOKEN_KEY, tokens.accessToken)
      storage.setItem(REFRESH_TOKEN_KEY, tokens.refreshToken)
      if (tokens.serviceToken) storage.setItem(SERVICE_TOKEN_KEY, tokens.serviceToken)
    },
    clear() {
      storage.removeItem(ACCESS_TOKEN_KEY)
      storage.removeItem(REFRESH_TOKEN_KEY)
      storage.removeItem(SERVICE_TOKEN_KEY)
    },
  }
}

/** One JSON value under one key of the injected Storage. */
export interface StoredValue<T> {
  get(): T | null
  set(value: T): void
  clear(): void
}

function createStoredValue<T>(storage: Storage, key: string): StoredValue<T> {
  return {
    get() {
      const raw = storage.getItem(key)
      if (raw === null) return null
      try {
        return JSON.parse(raw) as T
      } catch {
        return null
      }
    },
    set: (value) => storage.setItem(key, JSON.stringify(value)),
    clear: () => storage.removeItem(key),
  }
}

/** What one auth screen hands the next (e-mail, code purpose, reset token): kept per tab, survives reloads. */
export interface AuthFlow {
  email: string
  purpose: 'signup' | 'login' | 'reset'
  /** Where to go once signed in (a same-origin path). */
  redirect?: string
  /** When another code may be sent (epoch ms), from the server's `resend_after`. */
  resendAt?: number
  resetToken?: string
}

/** The external sign-in's pending request, checked on return at /callback. */
export interface SsoRequest {
  state: string
  redirect: string
}

/** Path -> time of the last chunk-load reload. */
export type ReloadGuard = Record<string, number>

/**
 * The app's other per-tab values.
 * @example
 * const values = createSessionValues(getSessionStorage())
 * values.ssoState.set({ state: 'abc', redirect: '/' })
 */
export function createSessionValues(storage: Storage) {
  return {
    ssoState: createStoredValue<SsoRequest>(storage, 'ssoState'),
    authFlow: createStoredValue<AuthFlow>(storage, 'authFlow'),
    reloadGuard: createStoredValue<ReloadGuard>(storage, 'reloadGuard'),
  }
}
export type SessionValues = ReturnType<typeof createSessionValues>

/** The browser's sessionStorage; the one reference to the global in the app. */
export function getSessionStorage(): Storage {
  return globalThis.sessionStorage
}
