// The demo's config.json (README: A demo with no server; docs/decisions/021-serverless-demo.md): the API on the
// page's own origin, answered by the worker; `mock` on, so the QA panel shows with its mailbox and scenarios; no
// external sign-in (the identity provider's pages are navigations, which a service worker of MSW never answers);
// no error reporting or session recorder (nothing would receive them).

export const DEMO_CONFIG = {
  apiBase: '',
  environment: 'demo',
  sentryDsn: null,
  recorder: null,
  mock: true,
  externalSignIn: false,
  toasts: 'top-center',
} as const

/** The file as the demo build writes it. */
export function demoConfigJson(): string {
  return `${JSON.stringify(DEMO_CONFIG, null, 2)}\n`
}
