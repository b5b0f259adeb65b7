// The one default layout (docs/behaviour.md: Routes): a loading bar, the page area, the notification area.
import { useSyncExternalStore } from 'react'
import { Link, NavLink, Outlet } from 'react-router-dom'
import { useServices } from '../lib/services/services.ts'
import { ToastArea } from '../lib/toasts/toast-area.tsx'
import { useSession } from '../session/use-session.ts'
import { QaPanelSlot } from './qa-panel-slot.tsx'
import { PATHS } from '../lib/config/paths.ts'

function LoadingBar() {
  const { activity, chunks } = useServices()
  const screensLoading = useSyncExternalStore(chunks.subscribe, chunks.getSnapshot, chunks.getSnapshot)
  const { ready } = useSession()
  const inFlight = useSyncExternalStore(activity.subscribe, activity.getSnapshot, activity.getSnapshot)
  const loading = screensLoading > 0 || !ready || inFlight > 0
  return <div className="loading-bar" role="progressbar" aria-label="Loading" hidden={!loading} />
}

function Header() {
  const { isLoggedIn, hasTokens, user } = useSession()
  return (
    <header className="app-header">
      <Link to={PATHS.home} className="brand">
        Auth shell
      </Link>
      {isLoggedIn && hasTokens ? (
        // One line at every width (app.css): only the name gives way, cut short, with its whole text as its title.
        <nav aria-label="Main" className="app-nav">
          <NavLink to={PATHS.process}>Process</NavLink> <NavLink to={PATHS.help}>Help</NavLink>{' '}
          <span className="user" title={user?.name || user?.email}>
            {user?.name || user?.email}
          </span>{' '}
          <Link to={PATHS.logout} className="logout">
            Log out
          </Link>
        </nav>
      ) : null}
    </header>
  )
}

export function Layout() {
  const { toasts, afterFirstPaint } = useServices()
  return (
    <>
      <LoadingBar />
      <Header />
      <main id="page">
        <Outlet />
      </main>
      <ToastArea toasts={toasts} afterFirstPaint={afterFirstPaint} />
      <QaPanelSlot />
    </>
  )
}
