// The test hook: with config.json `mock: true` only, the app puts its API client and session store on
// `window.__authShell`. The e2e suite then calls through the app's own client without reaching into React.
// Typed in web/src/test-hook.d.ts.
import type { ApiClient } from '../api/client.ts'
import type { RuntimeConfig } from '../lib/config/runtime-config.ts'
import type { SessionStore } from '../session/session-store.ts'

export interface AuthShellTestHook {
  /** The app's API client, with its bearer, 401 and retry rules. */
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
