/**
 * The contract suite against a server it did not build (docs/decisions/016-contract-target.md).
 * With `CONTRACT_TARGET=<base URL>`, every request goes there (contracts/support/test-server.ts).
 * A check the target cannot serve is skipped as "not checkable", never passed; the coverage report
 * (contracts/coverage/global-setup.ts) counts it.
 *
 * CONTRACT_CONTROL_TOKEN is sent with every request when the target's /__mock asks for one.
 */
import { inject, TestRunner, type TaskMeta } from 'vitest'
import { readTargetSettings, type TargetSettings } from '#contracts/support/target-settings.ts'
import { readCodeSource, type CodeSource } from '#contracts/support/code-source.ts'
import { createClientAgents, type ClientAgents } from '#contracts/support/client-address.ts'

/** The prefix of every "not checkable" note: the coverage report counts the skipped tests that carry it. */
export const NOT_CHECKABLE = 'not checkable against this target'

/** The control token header of the mock server (mock-server/src/pipeline/control-guard.ts). */
const CONTROL_TOKEN_HEADER = 'X-Mock-Control-Token'

export interface ContractTarget {
  /** The target's origin: `http://127.0.0.1:4010`. */
  baseUrl: string
  /** Headers every request carries (the control token when one was given). */
  headers: Record<string, string>
  /** Null when /__mock answers; else why the control surface cannot be used. */
  noControl: string | null
  /** The target has no /__mock at all (404): a production server, or the mock server in `--production`. */
  production: boolean
  /**
   * The control token, when the target's /__mock asks for one and CONTRACT_CONTROL_TOKEN gives it. Else null.
   */
  controlToken: string | null
  /**
   * The target's effective settings, read once on first use (contracts/support/target-settings.ts): what a test's
   * server options are compared with.
   */
  settings(): Promise<TargetSettings>
  /**
   * Where the codes the target mails are read without /__mock (CONTRACT_SMTP_PORT or CONTRACT_CODE_ADAPTER,
   * contracts/support/code-source.ts); null when neither is given.
   */
  codes: CodeSource | null
  /** The agents the suite's requests to the target leave through (contracts/support/client-address.ts). */
  clients: ClientAgents
}

/** The configured target's base URL, or null for the usual in-process run. Throws on a value that is no URL. */
export function readTargetUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.CONTRACT_TARGET?.trim()
  if (!raw) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`CONTRACT_TARGET is not a URL: ${JSON.stringify(raw)}. Example: http://127.0.0.1:4010`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`CONTRACT_TARGET must be an http or https URL, not ${url.protocol}`)
  if (url.search || url.hash) throw new Error('CONTRACT_TARGET takes no query or fragment.')
  if (url.pathname !== '/')
    throw new Error(
      `CONTRACT_TARGET is the server's origin (scheme, host, port), not ${JSON.stringify(raw)}: the suite adds /api/... itself.`,
    )
  if (url.username || url.password) throw new Error('CONTRACT_TARGET takes no user or password.')
  return url.origin
}

declare module 'vitest' {
  interface TaskMeta {
    /** How many requests the test sent to the contract target (its hooks' included). */
    targetRequests?: number
  }
}

/**
 * Counts a request sent to the target on the running test. One sent outside a test counts for no check.
 */
export function countTargetRequest(): void {
  const test = TestRunner.getCurrentTest()
  if (test) test.meta.targetRequests = (test.meta.targetRequests ?? 0) + 1
}

/** How many requests `test` sent to the target. */
export const targetRequestsOf = (test: { meta: TaskMeta }): number => test.meta.targetRequests ?? 0

/** Whether this run is against a target rather than in-process apps. */
export const TARGET_URL = readTargetUrl()

/**
 * CONTRACT_TARGET_PROXIED=1: the target is reached through a proxy or load balancer, which parses the bytes on the
 * wire itself and answers a dropped connection with its own 502 (docs/contract-suite.md, "Behind a balancer").
 */
export const TARGET_PROXIED = readProxied(process.env.CONTRACT_TARGET_PROXIED)

export function readProxied(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0') return false
  if (value === '1') return true
  throw new Error(`CONTRACT_TARGET_PROXIED is 1 or 0, not ${JSON.stringify(value)}.`)
}

/**
 * For a check of what only the server's own connection shows. Behind a proxy, ends the test as not checkable.
 * @example requireDirectConnection('speaks raw HTTP/1.1 to the server itself')
 */
export function requireDirectConnection(reason: string): void {
  if (TARGET_URL && TARGET_PROXIED)
    notCheckable(`${reason}, and the target is reached through a proxy that answers for it`)
}

let probed: Promise<ContractTarget> | null = null
/** The fetch target-setup.ts has not wrapped yet: that one adds the control token, and the probe asks once without. */
export const unwrappedFetch = globalThis.fetch

/**
 * The target, probed once per worker: does its /__mock answer (with the token, when given)?
 * @example const target = await getContractTarget() // { baseUrl, headers, noControl: null }
 */
export function getContractTarget(): Promise<ContractTarget> {
  if (!TARGET_URL) throw new Error('Failed to read the contract target: CONTRACT_TARGET is not set.')
  probed ??= Promise.all([
    probeTarget(TARGET_URL, process.env.CONTRACT_CONTROL_TOKEN?.trim() || undefined, unwrappedFetch),
    readCodeSource(process.env, inject('mailCaptureDir') ?? null),
  ]).then(([target, codes]) => ({ ...target, codes }))
  return probed
}

/**
 * GET /__mock/clock, the cheapest control call: 200 means the control surface is there for us. With a token that is
 * taken, the same call without it says whether the target asks for one.
 */
export async function probeTarget(
  baseUrl: string,
  controlToken: string | undefined,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Promise<ContractTarget> {
  const headers: Record<string, string> = controlToken ? { [CONTROL_TOKEN_HEADER]: controlToken } : {}
  const clockStatus = async (sent: Record<string, string>): Promise<number> => {
    try {
      const response = await fetch(`${baseUrl}/__mock/clock`, {
        headers: { ...sent, Accept: 'application/json' },
      })
      await response.body?.cancel()
      return response.status
    } catch (error) {
      throw new Error(`Failed to reach the contract target ${baseUrl}: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }
  const status = await clockStatus(headers)
  // A refused token is a set-up mistake. Skipping the control checks would turn a typo into a green run.
  if (status === 401 && controlToken !== undefined)
    throw new Error(
      `Failed to use the contract target ${baseUrl}: its /__mock refused CONTRACT_CONTROL_TOKEN (GET /__mock/clock: 401). Give the token the server was started with, or none to run only the checks that need no control.`,
    )
  // A mock server whose /__mock a proxy hides is no production server: its config.json still says mock mode.
  const hidden = status === 404 && (await saysMockMode(baseUrl, fetch))
  const production = status === 404 && !hidden
  const noControl =
    status === 200
      ? null
      : status === 401
        ? 'needs the /__mock control surface, which asks for a control token (set CONTRACT_CONTROL_TOKEN)'
        : hidden
          ? 'needs the /__mock control surface, which is hidden (GET /__mock/clock: 404, though config.json says mock mode)'
          : `needs the /__mock control surface, which the target does not offer (GET /__mock/clock: ${status})`
  const asksForToken = status === 200 && controlToken !== undefined && (await clockStatus({})) === 401
  let settings: Promise<TargetSettings> | null = null
  return {
    baseUrl,
    headers,
    noControl,
    production,
    controlToken: asksForToken ? controlToken : null,
    codes: null,
    clients: createClientAgents(),
    settings: () => (settings ??= readTargetSettings({ baseUrl, headers, noControl, production }, fetch)),
  }
}

/** Whether the target's /config.json says it runs in mock mode (`"mock": true`); false for any other answer. */
async function saysMockMode(baseUrl: string, fetch: typeof globalThis.fetch): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/config.json`, { headers: { Accept: 'application/json' } })
    const body = response.ok
      ? ((await response.json()) as { mock?: unknown })
      : (await response.body?.cancel(), {})
    return body.mock === true
  } catch {
    return false
  }
}

/** Thrown where no test is running (a beforeAll): the check cannot be skipped alone, so the file says why. */
export class NotCheckableError extends Error {
  constructor(readonly reason: string) {
    super(`${NOT_CHECKABLE}: ${reason}`)
    this.name = 'NotCheckableError'
  }
}

/**
 * Skips the running test as "not checkable against this target" with `reason`.
 * Outside a test, throws NotCheckableError.
 * @example if (!target.control) notCheckable('needs the /__mock control surface')
 */
export function notCheckable(reason: string): never {
  const test = TestRunner.getCurrentTest()
  if (test) test.context.skip(`${NOT_CHECKABLE}: ${reason}`)
  throw new NotCheckableError(reason)
}

/**
 * A stand-in for what only an in-process run has. Any use ends the test as not checkable.
 */
export function unavailable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_, property) {
      // Not a thenable (`await` stays harmless), and symbols (inspection, coercion) are no use of it.
      if (property === 'then' || typeof property === 'symbol') return undefined
      return notCheckable(`${what} (read .${String(property)})`)
    },
  })
}
