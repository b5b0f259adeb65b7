// The cluster soak's client: one HTTP call from a simulated user's own loopback address (the rate limits count per
// address, as they would for real users), and the retry a client makes when its instance dies under the call: the
// same request again on another live instance, since it cannot know whether the first was applied.
import { request } from 'node:http'
import type { Cluster } from '#harness/cluster.ts'

/** No answer within this long counts as a dead instance. */
const ANSWER_TIMEOUT_MS = 30_000
/** Tries of one call before the user gives up (every instance killed over and over). */
const MAX_ATTEMPTS = 20

export interface Answer {
  status: number
  body: Record<string, unknown>
  setCookie: string[]
  /** The instance that answered. */
  port: number
  /** Whether an earlier try of this call went without an answer (it may have been applied). */
  retried: boolean
}

export interface CallStats {
  calls: number
  ok: number
  /** Calls sent again on another instance after the first got no answer. */
  retries: number
  /** 503 answers (the database out of reach), each tried again elsewhere. */
  unavailable: number
  statuses: Map<number, number>
}

export const newStats = (): CallStats => ({
  calls: 0,
  ok: 0,
  retries: 0,
  unavailable: 0,
  statuses: new Map(),
})

export interface CallInit {
  body?: unknown
  headers?: Record<string, string>
}

/** A JSON body; anything else (a proxy's page, a cut-off answer) kept short for the report. */
function parseBody(text: string): Record<string, unknown> {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  } catch {
    return { unparsed: text.slice(0, 200) }
  }
}

/** One try on `port`; rejects when the connection is refused, reset or silent. */
export function send(port: number, localAddress: string, method: string, path: string, init: CallInit) {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body)
  const headers = { ...init.headers, ...(payload !== undefined && { 'content-type': 'application/json' }) }
  return new Promise<Omit<Answer, 'retried'>>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers,
        localAddress,
        agent: false,
        timeout: ANSWER_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const body = parseBody(Buffer.concat(chunks).toString())
          const setCookie = response.headers['set-cookie'] ?? []
          resolve({ status: response.statusCode ?? 0, body, setCookie, port })
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error('no answer')))
    req.on('error', reject)
    req.end(payload)
  })
}

/**
 * @example
 * const call = createCaller(cluster, stats)
 * const answer = await call('127.1.0.7', 'POST', '/api/auth/login', { body: { email, password } })
 */
/** `trace`: one line per try (address, method, path, port, status or error; never a body, token or code). */
export function createCaller(cluster: Cluster, stats: CallStats, trace?: (line: string) => void) {
  return async function call(localAddress: string, method: string, path: string, init: CallInit = {}) {
    let avoid: number | undefined
    let retried = false
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const port = await cluster.pick(avoid)
      stats.calls += 1
      try {
        const answer = await send(port, localAddress, method, path, init)
        trace?.(
          `${localAddress} ${method} ${path} :${port} ${answer.status} ${String(answer.body.error ?? '')}`,
        )
        stats.statuses.set(answer.status, (stats.statuses.get(answer.status) ?? 0) + 1)
        if (answer.status === 503) {
          stats.unavailable += 1
          retried = true // a 503 may come after part of the work: as unknown as no answer
          avoid = port
          continue
        }
        if (answer.status >= 200 && answer.status < 300) stats.ok += 1
        return { ...answer, retried }
      } catch (error) {
        trace?.(`${localAddress} ${method} ${path} :${port} ${(error as Error).message}`)
        stats.retries += 1
        retried = true
        avoid = port
      }
    }
    throw new Error(`${method} ${path} got no answer in ${MAX_ATTEMPTS} tries.`)
  }
}

export type Caller = ReturnType<typeof createCaller>
