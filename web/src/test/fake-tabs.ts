// Fakes of BroadcastChannel and Web Locks. Here a rotation's message always beats the next lock grant.
// In a browser they may race, and the server's grace window (openapi.yaml refreshToken) covers that.
import type { ChannelLike, LockManagerLike } from '../session/cross-tab.ts'

type Listener = (event: { data: unknown }) => void

export function createBus() {
  const tabs: Set<Listener>[] = []
  const posted: unknown[] = []
  return {
    posted,
    channel(): ChannelLike {
      const listeners = new Set<Listener>()
      tabs.push(listeners)
      return {
        postMessage(data) {
          posted.push(data)
          for (const other of tabs) {
            if (other === listeners) continue
            setTimeout(() => other.forEach((listener) => listener({ data: structuredClone(data) })), 0)
          }
        },
        // Like a BroadcastChannel, only 'message' listeners hear the messages.
        addEventListener: (type, listener) => void (type === 'message' && listeners.add(listener)),
        removeEventListener: (type, listener) => void (type === 'message' && listeners.delete(listener)),
      }
    },
  }
}

export function createLocks(): LockManagerLike & { granted: string[] } {
  const tails = new Map<string, Promise<unknown>>()
  const granted: string[] = []
  return {
    granted,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve()
      const run = previous
        .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
        .then(() => {
          granted.push(name)
          return callback()
        })
      tails.set(
        name,
        run.catch(() => {}),
      )
      return run
    },
  }
}
