// The routes, exactly those of docs/behaviour.md: Routes. /login and the layout load eagerly; every other screen and
// the error page (with the crawler list it needs) are lazy chunks, which keeps the first load of /login small
// (docs/decisions/012-first-load.md). The error page's chunk is fetched ahead, once the page is idle (main.tsx), so
// it is there when the network is not.
import { useEffect, useState } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { LoginPage } from '../features/auth/login-page.tsx'
import { Layout } from './layout.tsx'
import { RequireSignIn } from './require-sign-in.tsx'
import { PATHS } from './paths.ts'

type ErrorPageModule = typeof import('./error-page.tsx')
let errorPageModule: ErrorPageModule | null = null

/** The error page's chunk (also fetched ahead of need by main.tsx). */
export const loadErrorPage = async () => (errorPageModule ??= await import('./error-page.tsx'))

/**
 * Renders one of the error page's components once its chunk is in: at once when it was fetched ahead, else after
 * it loads. A state update rather than Suspense, whose reveal waits on a timer (a paused page clock would hold it).
 */
function LazyErrorPage({ name }: { name: 'ErrorPage' | 'NotFoundPage' }) {
  const [loaded, setLoaded] = useState(errorPageModule)
  useEffect(() => {
    if (!loaded) void loadErrorPage().then(setLoaded)
  }, [loaded])
  const Page = loaded?.[name]
  return Page ? <Page /> : null
}

const ErrorPage = () => <LazyErrorPage name="ErrorPage" />

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    // Shown while the first screen's lazy chunk loads (a deep link to a lazy route).
    hydrateFallbackElement: <div className="loading-bar" role="progressbar" aria-label="Loading" />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          {
            element: <RequireSignIn />,
            children: [
              {
                path: PATHS.home,
                lazy: async () => ({ Component: (await import('../features/home/home-page.tsx')).HomePage }),
              },
              {
                path: PATHS.help,
                lazy: async () => ({ Component: (await import('../features/help/help-page.tsx')).HelpPage }),
              },
              {
                path: PATHS.process,
                lazy: async () => ({
                  Component: (await import('../features/process/process-page.tsx')).ProcessPage,
                }),
              },
            ],
          },
          { path: PATHS.login, element: <LoginPage /> },
          {
            path: PATHS.signup,
            lazy: async () => ({ Component: (await import('../features/auth/signup-page.tsx')).SignupPage }),
          },
          {
            path: PATHS.otp,
            lazy: async () => ({
              Component: (await import('../features/auth/otp-page.tsx')).ExistingAccountOtpPage,
            }),
          },
          {
            path: PATHS.newAccountOtp,
            lazy: async () => ({
              Component: (await import('../features/auth/otp-page.tsx')).NewAccountOtpPage,
            }),
          },
          {
            path: PATHS.forgot,
            lazy: async () => ({ Component: (await import('../features/auth/forgot-page.tsx')).ForgotPage }),
          },
          {
            path: PATHS.updatePassword,
            lazy: async () => ({
              Component: (await import('../features/auth/update-password-page.tsx')).UpdatePasswordPage,
            }),
          },
          {
            path: PATHS.logout,
            lazy: async () => ({ Component: (await import('../features/auth/logout-page.tsx')).LogoutPage }),
          },
          {
            path: PATHS.callback,
            lazy: async () => ({
              Component: (await import('../features/auth/callback-page.tsx')).CallbackPage,
            }),
          },
          { path: '*', element: <LazyErrorPage name="NotFoundPage" /> },
        ],
      },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}

export type AppRouter = ReturnType<typeof createAppRouter>
