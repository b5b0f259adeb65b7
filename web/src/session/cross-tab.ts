// Tabs of one browser share rotations and log-outs over a BroadcastChannel. A rotation is keyed by a hash of the
// retired refresh token, so only tabs holding it take the new pair. The session machine decides what a message
// means; this module only parses, hashes and posts. Browser APIs come in injected.

/** The part of the Web Locks API used here (navigator.locks). */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

export interface RotationMessage {
  type: 'token-rotated'
  /** Hash of the refresh token that was retired; never the token itself. */
  retired: string
  accessToken: string
  refreshToken: string
}

export interface LogoutMessage {
  type: 'logged-out'
}

/** A rotation another tab announced, with the token this tab held when it heard it and that token's hash. */
export interface HeardRotation {
  tokens: { accessToken: string; refreshToken: string }
  retired: string
  held: { token: string; digest: string }
}

/** A field of a message that may be anything at all (a primitive has no fields). */
const field = (data: unknown, key: string): unknown =>
  (data as Record<string, unknown> | null | undefined)?.[key]

function isRotationMessage(data: unknown): data is RotationMessage {
  return (
    field(data, 'type') === 'token-rotated' &&
    typeof field(data, 'retired') === 'string' &&
    typeof field(data, 'accessToken') === 'string' &&
    typeof field(data, 'refreshToken') === 'string'
  )
}

const isLogoutMessage = (data: unknown): data is LogoutMessage => field(data, 'type') === 'logged-out'

/** Runs `task` under the named lock when the browser has Web Locks, else directly. */
export function withLock<T>(locks: LockManagerLike | null | undefined, name: string, task: () => Promise<T>) {
  return locks ? locks.request(name, task) : task()
}

/**
 * Holds the named lock once per key, from `acquire` until `release` (or `releaseAll`, when the page goes).
 * @example
 * const keeper = createLockKeeper(navigator.locks, 'auth-shell:refresh')
 * keeper.acquire(1, () => console.log('granted'))
 * keeper.release(1)
 */
export function createLockKeeper(locks: LockManagerLike | null | undefined, name: string) {
  const held = new Map<number, () => void>()
  return {
    acquire(key: number, onGranted: () => void): void {
      void withLock(locks, name, () => new Promise<void>((release) => (held.set(key, release), onGranted())))
    },
    release(key: number): void {
      held.get(key)?.()
      held.delete(key)
    },
    releaseAll: () => held.forEach((release) => release()),
  }
}

export interface TabChannelOptions {
  channel?: ChannelLike | null | undefined
  hash: (text: string) => Promise<string>
  getRefreshToken: () => string | null
  onRotation: (heard: HeardRotation) => void
  onLogout: () => void
}

/**
 * Posts this tab's rotations and log-outs, and reports the other tabs' ones.
 * @example
 * const tabs = createTabChannel({ channel, hash: sha256Hex, getRefreshToken, onRotation, onLogout })
 * await tabs.announceRotation('old-refresh', { accessToken: 'a2', refreshToken: 'r2' })
 * tabs.announceLogout()
 */
export function createTabChannel(options: TabChannelOptions) {
  const { channel, hash, getRefreshToken, onRotation, onLogout } = options
  const listener = (event: { data: unknown }) => {
    const message = event.data
    if (isLogoutMessage(message)) return onLogout()
    if (!isRotationMessage(message)) return
    const held = getRefreshToken()
    if (held === null) return
    const { accessToken, refreshToken, retired } = message
    hash(held).then(
      (digest) =>
        onRotation({ tokens: { accessToken, refreshToken }, retired, held: { token: held, digest } }),
      () => {}, // no hashing (an insecure origin has no crypto.subtle): tabs stay independent
    )
  }
  channel?.addEventListener('message', listener)
  const post = (message: RotationMessage | LogoutMessage) => {
    if (!channel) return
    try {
      channel.postMessage(message)
    } catch (error) {
      // A closed channel (InvalidStateError): the other tabs find out from the server. Anything else is a bug.
      if (!(error instanceof DOMException)) throw error
    }
  }
  return {
    async announceRotation(
      retiredRefreshToken: string,
      tokens: { accessToken: string; refreshToken: string },
    ) {
      if (!channel) return
      let retired: string
      try {
        retired = await hash(retiredRefreshToken)
      } catch {
        return // no hashing (no crypto.subtle): the other tabs refresh for themselves
      }
      post({ type: 'token-rotated', retired, ...tokens })
    },
    announceLogout: () => post({ type: 'logged-out' }),
    dispose() {
      channel?.removeEventListener('message', listener)
    },
  }
}

/** SHA-256 of a text as lower-case hex, through an injected SubtleCrypto. */
export function createSha256Hex(subtle: SubtleCrypto) {
  return async (text: string): Promise<string> => {
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text))
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
  }
}
