// Signs in as a seeded account through the login form of the whole app (app-harness.tsx) and waits for `path`.
import { screen } from '@testing-library/react'
import { ADA, renderApp, type RenderAppOptions } from './app-harness.tsx'

export type SignedInApp = Awaited<ReturnType<typeof renderApp>>

/** The app at `path` (a sign-in-required page), signed in as Ada through the form; resolves once `landmark` shows. */
export async function renderSignedIn(
  path: string,
  landmark: { role: 'heading'; name: string | RegExp },
  options: RenderAppOptions = {},
): Promise<SignedInApp> {
  const app = await renderApp(
    path === '/' ? '/login' : `/login?redirect=${encodeURIComponent(path)}`,
    options,
  )
  await app.user.type(await screen.findByLabelText('E-mail'), ADA.email)
  await app.user.type(screen.getByLabelText('Password'), ADA.password)
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
  await screen.findByRole(landmark.role, { name: landmark.name })
  return app
}
