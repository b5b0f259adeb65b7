// Cross-tab coordination of token rotation (DESIGN.md, issue 3 "Duplicated tabs"): a lock around each refresh and
// an announcement of every rotation, keyed by a hash of the retired refresh token. Browser APIs come in injected.

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

function isRotationMessage(data: unknown): data is RotationMessage {
  if (typeof data !== 'object' || data === null) return false
  const m = data as Record<string, unknown>
  return (
    m.type === 'token-rotated' &&
    typeof m.retired === 'string' &&
    typeof m.accessToken === 'string' &&
    typeof m.refreshToken === 'string'
  )
}

/** Runs `task` under the named lock when the browser has Web Locks, else directly. */
export function withLock<T>(locks: LockManagerLike | null | undefined, name: string, task: () => Promise<T>) {
  return locks ? locks.request(name, task) : task()
}

export interface RotationSyncOptions {
  channel: ChannelLike | null | undefined
  hash: (text: string) => Promise<string>
  getRefreshToken: () => string | null
  /** Called when another tab rotated the refresh token this tab holds. */
  onAdopt: (tokens: { accessToken: string; refreshToken: string }) => void
}

/**
 * Announces this tab's rotations and adopts other tabs' rotations of the same refresh token.
 * Tabs signed in separately hold different refresh tokens, so their hashes never match.
 * @example
 * const sync = createRotationSync({ channel, hash: sha256Hex, getRefreshToken, onAdopt })
 * await sync.announce('old-refresh', { accessToken: 'a2', refreshToken: 'r2' })
 */
export function createRotationSync(options: RotationSyncOptions) {
  const { channel, hash, getRefreshToken, onAdopt } = options
  const listener = (event: { data: unknown }) => {
    const message = event.data
    if (!isRotationMessage(message)) return
    const held = getRefreshToken()
    if (held === null || held === message.refreshToken) return
    hash(held).then(
      (digest) => {
        // The token may have changed while hashing; only adopt for the one that was hashed.
        if (digest === message.retired && getRefreshToken() === held) {
          onAdopt({ accessToken: message.accessToken, refreshToken: message.refreshToken })
        }
      },
      () => {}, // no hashing (an insecure origin has no crypto.subtle): tabs stay independent
    )
  }
  channel?.addEventListener('message', listener)
  return {
    async announce(retiredRefreshToken: string, tokens: { accessToken: string; refreshToken: string }) {
      if (!channel) return
      try {
        const retired = await hash(retiredRefreshToken)
        const message: RotationMessage = { type: 'token-rotated', retired, ...tokens }
        channel.postMessage(message)
      } catch {
        // no hashing (no crypto.subtle) or a closed channel: the other tabs refresh for themselves
      }
    },
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
