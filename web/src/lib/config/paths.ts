// Every route of the app (docs/behaviour.md: Routes), written once for the router, links and session machine.
// Pure: imports nothing.

export const PATHS = {
  home: '/',
  help: '/help',
  process: '/process',
  login: '/login',
  signup: '/signup',
  /** The one-time code of an existing account (sign-in by code, password reset). */
  otp: '/otp',
  /** The one-time code that verifies a new account's address. */
  newAccountOtp: '/new/otp',
  forgot: '/forgot',
  updatePassword: '/update_password',
  logout: '/logout',
  /** The return point of the external sign-in (its `redirect_uri`). */
  callback: '/callback',
} as const

export type AppPath = (typeof PATHS)[keyof typeof PATHS]
