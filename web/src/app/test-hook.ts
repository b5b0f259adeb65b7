// The test hook (README: The e2e suite): in mock mode alone (config.json `mock: true`, the mode that also shows the
// QA panel, see qa-panel-slot.tsx), the app puts its API client and session store on `window.__authShell`, so the
// e2e suite can call through the app's own client (bearer, the 401 rule with its single refresh, the retry) without
// reaching into React. A production configuration (`mock: false`, the fallback) never sets it. Typed in
// web/src/test-hook.d.ts.
import type { ApiClient } from '../api/client.ts'
import type { RuntimeConfig } from '../lib/config/runtime-config.ts'
import type { SessionStore } from '../session/session-store.ts'

export interface AuthShellTestHook {
  /** The app's API client: calls take the app's whole path (bearer, 401 -> one refresh -> one retry, HTTP retry). */
  readonly api: ApiClient
  /** The app's session store. */
  readonly session: SessionStore
}

/**
 * @example
 * installTestHook(window, config, { api: services.api, session: store }) // sets window.__authShell in mock mode only
 */
export function installTestHook(
  target: { __authShell?: AuthShellTestHook },
  config: Pick<RuntimeConfig, 'mock'>,
  hook: AuthShellTestHook,
): void {
  if (!config.mock) return
  target.__authShell = Object.freeze({ api: hook.api, session: hook.session })
}
