// The guard of the sign-in-required routes: no user, then /login?redirect=<path> (docs/behaviour.md: Routes).
// A tab without tokens cannot call the API, so it goes to sign in at once, without waiting for the session call.
import { matchPath, Navigate, Outlet, useLocation, type Location } from 'react-router-dom'
import { getLoginPath } from '../lib/navigation/safe-redirect.ts'
import { useSession } from '../session/use-session.ts'
import { PATHS } from '../lib/config/paths.ts'

/** The routes behind this guard (router.tsx), matched as the router matches them. */
export const SIGNED_IN_PATHS = [PATHS.home, PATHS.help, PATHS.process] as const

/**
 * Where a tab without tokens opening `location` goes, decided before the first render (main.tsx).
 * So the first paint is the sign-in form, not an empty layout. Null when `location` is not guarded.
 */
export function signInFirst(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string | null {
  if (!SIGNED_IN_PATHS.some((path) => matchPath(path, location.pathname))) return null
  return getLoginPath(location.pathname + location.search + location.hash)
}

export function RequireSignIn() {
  const { ready, isLoggedIn, hasTokens, signedOut } = useSession()
  const location = useLocation()
  // Without tokens the answer cannot change the outcome, so go at once. With tokens, wait for the answer.
  if (!ready && hasTokens) return null
  if (!isLoggedIn && signedOut) return <Navigate to={PATHS.login} replace /> // docs/behaviour.md: Session, Messages: "goes to /login"
  if (!isLoggedIn || !hasTokens) {
    return <Navigate to={getLoginPath(location.pathname + location.search + location.hash)} replace />
  }
  return <Outlet />
}
