// The React binding of the session store (useSyncExternalStore); the store itself knows nothing of React.
import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react'
import type { SessionSnapshot, SessionStore } from './session-store.ts'

const SessionContext = createContext<SessionStore | null>(null)

export function SessionProvider({ store, children }: { store: SessionStore; children?: ReactNode }) {
  return createElement(SessionContext.Provider, { value: store }, children)
}

/** The store, for actions (sign in, log out). */
export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext)
  if (store === null) throw new Error('Failed to read the session: no SessionProvider above this component.')
  return store
}

/**
 * The session's current state; re-renders on every change.
 * @example
 * const { ready, isLoggedIn, user } = useSession()
 */
export function useSession(): SessionSnapshot {
  const store = useSessionStore()
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
