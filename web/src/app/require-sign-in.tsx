// The guard of the sign-in-required routes: sends a visitor without a user to /login?redirect=<path>
// (docs/behaviour.md: Routes). A tab whose cookie session has a user but that holds no tokens (a new tab, or after a
// forced sign-out and a reload) cannot call the API, so it is sent to sign in as well; and since that is so whatever
// the session call answers, such a tab goes at once rather than after the answer.
import { matchPath, Navigate, Outlet, useLocation, type Location } from 'react-router-dom'
import { getLoginPath } from '../lib/navigation/safe-redirect.ts'
import { useSession } from '../session/use-session.ts'
import { PATHS } from '../lib/config/paths.ts'

/** The routes behind this guard (router.tsx), matched as the router matches them. */
export const SIGNED_IN_PATHS = [PATHS.home, PATHS.help, PATHS.process] as const

/**
 * Where a tab holding no tokens that opens `location` goes, before anything renders (main.tsx): the guard's own
 * answer for it, so the first thing such a visitor sees painted is the sign-in form, not an empty layout that the
 * guard then leaves; null when `location` is not behind the guard.
 */
export function signInFirst(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string | null {
  if (!SIGNED_IN_PATHS.some((path) => matchPath(path, location.pathname))) return null
  return getLoginPath(location.pathname + location.search + location.hash)
}

export function RequireSignIn() {
  const { ready, isLoggedIn, hasTokens, signedOut } = useSession()
  const location = useLocation()
  // A tab holding no tokens goes to sign in whatever the session call answers (see below), so it goes at once; one
  // holding tokens waits for the answer, the layout's loading bar showing meanwhile.
  if (!ready && hasTokens) return null
  if (!isLoggedIn && signedOut) return <Navigate to={PATHS.login} replace /> // docs/behaviour.md: Session, Messages: "goes to /login"
  if (!isLoggedIn || !hasTokens) {
    return <Navigate to={getLoginPath(location.pathname + location.search + location.hash)} replace />
  }
  return <Outlet />
}
