// The demo's config.json (docs/decisions/021-serverless-demo.md): `mock` on for the QA panel.
// No external sign-in, since MSW's worker never answers navigations; no monitoring, since nothing would receive it.

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
