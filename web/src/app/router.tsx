// The routes of docs/behaviour.md: Routes. Only /login and the layout are eager, to keep /login's first load small
// (docs/decisions/012-first-load.md). The error page's chunk is fetched at idle, so it is there when the network is not.
import { useEffect, useState, type ComponentType } from 'react'
import { Outlet, Route, Routes, unstable_HistoryRouter as HistoryRouter, useLocation } from 'react-router-dom'
import type { AppRouter } from './app-router.ts'
import { ErrorView, useCaughtError } from './error-view.tsx'
import { lazyScreen } from '../lib/navigation/lazy-screen.tsx'
import { useServices } from '../lib/services/services.ts'
import { RouteErrorBoundary } from './route-error-boundary.tsx'
import { LoginPage } from '../features/auth/login-page.tsx'
import { Layout } from './layout.tsx'
import { RequireSignIn, SIGNED_IN_PATHS } from './require-sign-in.tsx'
import { PATHS } from '../lib/config/paths.ts'

/** The error page's chunk: the page's ChunkLoads keep it once in (main.tsx also fetches it ahead of need). */
export const loadErrorPage = () => import('./error-page.tsx')

/**
 * Renders an error page component once its chunk is in, falling back to the eager view if it cannot load.
 * A state update, not Suspense: Suspense reveals on a timer, which a paused page clock would hold.
 */
function LazyErrorPage({ name, error }: { name: 'ErrorPage' | 'NotFoundPage'; error?: unknown }) {
  const { chunks } = useServices()
  const [loaded, setLoaded] = useState(() => chunks.peek(loadErrorPage))
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (loaded) return
    return chunks.awaitWhileShown(chunks.fetch(loadErrorPage), setLoaded, () => setFailed(true))
  }, [chunks, loaded])
  if (loaded) return name === 'ErrorPage' ? <loaded.ErrorPage error={error} /> : <loaded.NotFoundPage />
  if (!failed) return null
  return name === 'ErrorPage' ? <PlainErrorPage error={error} /> : <PlainNotFoundPage />
}

function PlainErrorPage({ error }: { error: unknown }) {
  return <ErrorView {...useCaughtError(error)} />
}

function PlainNotFoundPage() {
  return <ErrorView status={404} path={useLocation().pathname} />
}

const showError = (error: unknown) => <LazyErrorPage name="ErrorPage" error={error} />

const HomePage = lazyScreen(
  () => import('../features/home/home-page.tsx'),
  (module) => module.HomePage,
)
const HelpPage = lazyScreen(
  () => import('../features/help/help-page.tsx'),
  (module) => module.HelpPage,
)
const ProcessPage = lazyScreen(
  () => import('../features/process/process-page.tsx'),
  (module) => module.ProcessPage,
)
const SignupPage = lazyScreen(
  () => import('../features/auth/signup-page.tsx'),
  (module) => module.SignupPage,
)
const ExistingAccountOtpPage = lazyScreen(
  () => import('../features/auth/otp-page.tsx'),
  (module) => module.ExistingAccountOtpPage,
)
const NewAccountOtpPage = lazyScreen(
  () => import('../features/auth/otp-page.tsx'),
  (module) => module.NewAccountOtpPage,
)
const ForgotPage = lazyScreen(
  () => import('../features/auth/forgot-page.tsx'),
  (module) => module.ForgotPage,
)
const UpdatePasswordPage = lazyScreen(
  () => import('../features/auth/update-password-page.tsx'),
  (module) => module.UpdatePasswordPage,
)
const LogoutPage = lazyScreen(
  () => import('../features/auth/logout-page.tsx'),
  (module) => module.LogoutPage,
)
const CallbackPage = lazyScreen(
  () => import('../features/auth/callback-page.tsx'),
  (module) => module.CallbackPage,
)

/** The screens behind the guard, one per guarded path. main.tsx redirects by the same list. */
const SIGNED_IN_SCREENS = {
  [PATHS.home]: HomePage,
  [PATHS.help]: HelpPage,
  [PATHS.process]: ProcessPage,
} satisfies Record<(typeof SIGNED_IN_PATHS)[number], ComponentType>

/** The screens' error boundary, inside the layout: the header and the notification area stay. */
function ScreenBoundary() {
  return (
    <RouteErrorBoundary fallback={showError}>
      <Outlet />
    </RouteErrorBoundary>
  )
}

export function AppRoutes() {
  return (
    // The outer boundary: an error in the layout itself shows the error page alone.
    <RouteErrorBoundary fallback={showError}>
      <Routes>
        <Route element={<Layout />}>
          <Route element={<ScreenBoundary />}>
            <Route element={<RequireSignIn />}>
              {SIGNED_IN_PATHS.map((path) => {
                const Screen = SIGNED_IN_SCREENS[path]
                return <Route key={path} path={path} element={<Screen />} />
              })}
            </Route>
            <Route path={PATHS.login} element={<LoginPage />} />
            <Route path={PATHS.signup} element={<SignupPage />} />
            <Route path={PATHS.otp} element={<ExistingAccountOtpPage />} />
            <Route path={PATHS.newAccountOtp} element={<NewAccountOtpPage />} />
            <Route path={PATHS.forgot} element={<ForgotPage />} />
            <Route path={PATHS.updatePassword} element={<UpdatePasswordPage />} />
            <Route path={PATHS.logout} element={<LogoutPage />} />
            <Route path={PATHS.callback} element={<CallbackPage />} />
            <Route path="*" element={<LazyErrorPage name="NotFoundPage" />} />
          </Route>
        </Route>
      </Routes>
    </RouteErrorBoundary>
  )
}

/** The app's routes over `router`'s history. */
export function AppRouterView({ router }: { router: AppRouter }) {
  return (
    <HistoryRouter history={router.history}>
      <AppRoutes />
    </HistoryRouter>
  )
}
