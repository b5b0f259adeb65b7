// The guard of the sign-in-required routes: waits for the session to be ready, then sends a visitor without a
// user to /login?redirect=<path> (docs/behaviour.md: Routes). A tab whose cookie session has a user but that holds no tokens (a new
// tab, or after a forced sign-out and a reload) cannot call the API, so it is sent to sign in as well.
import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { getLoginPath } from '../lib/navigation/safe-redirect.ts'
import { useSession } from '../session/use-session.ts'
import { PATHS } from './paths.ts'

export function RequireSignIn() {
  const { ready, isLoggedIn, hasTokens, signedOut } = useSession()
  const location = useLocation()
  if (!ready) return null // the layout's loading bar shows meanwhile
  if (!isLoggedIn && signedOut) return <Navigate to={PATHS.login} replace /> // docs/behaviour.md: Session, Messages: "goes to /login"
  if (!isLoggedIn || !hasTokens) {
    return <Navigate to={getLoginPath(location.pathname + location.search + location.hash)} replace />
  }
  return <Outlet />
}
