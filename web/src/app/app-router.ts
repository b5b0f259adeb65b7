// The app's router: declarative routes over a history this module owns, so code outside React can navigate.
// Not the data router: it adds about 16 KB gzip to /login for features we do not use
// (docs/decisions/012-first-load.md).
import {
  UNSAFE_createBrowserHistory,
  UNSAFE_createMemoryHistory,
  type Location,
  type To,
} from 'react-router-dom'

type History = ReturnType<typeof UNSAFE_createBrowserHistory>

export interface NavigateOptions {
  replace?: boolean
  state?: unknown
}

export interface AppRouter {
  /** The history <HistoryRouter> renders from (any number of listeners; react-router's own accepts one). */
  readonly history: History
  /** The current location (read at each access). */
  readonly location: Location
  /** Goes to `to` (an absolute path), or `delta` steps back or forward. Resolves at once. */
  navigate(to: To | number, options?: NavigateOptions): Promise<void>
  /** Calls `listener` with the new location at every navigation (push, replace, back and forward), synchronously. */
  subscribe(listener: (location: Location) => void): () => void
  createHref(to: To): string
}

/**
 * @example
 * const router = createAppRouter() // the browser's history
 * const inTests = createAppRouter(UNSAFE_createMemoryHistory({ initialEntries: ['/login'], v5Compat: true }))
 */
export function createAppRouter(base: History = UNSAFE_createBrowserHistory({ v5Compat: true })): AppRouter {
  const listeners = new Set<(location: Location) => void>()
  const historyListeners = new Set<Parameters<History['listen']>[0]>()
  base.listen((update) => {
    historyListeners.forEach((listener) => listener(update))
    listeners.forEach((listener) => listener(update.location))
  })
  const history: History = {
    get action() {
      return base.action
    },
    get location() {
      return base.location
    },
    createHref: (to) => base.createHref(to),
    createURL: (to) => base.createURL(to),
    encodeLocation: (to) => base.encodeLocation(to),
    push: (to, state) => base.push(to, state),
    replace: (to, state) => base.replace(to, state),
    go: (delta) => base.go(delta),
    listen: (listener) => {
      historyListeners.add(listener)
      return () => void historyListeners.delete(listener)
    },
  }
  return {
    history,
    get location() {
      return base.location
    },
    navigate(to, options) {
      if (typeof to === 'number') base.go(to)
      else if (options?.replace) base.replace(to, options.state)
      else base.push(to, options?.state)
      return Promise.resolve()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    createHref: (to) => base.createHref(to),
  }
}

/** A router over an in-memory history starting at `path` (tests, and anything without a window). */
export function createMemoryAppRouter(path: string): AppRouter {
  return createAppRouter(UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true }))
}
