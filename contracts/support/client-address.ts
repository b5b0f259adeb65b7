/**
 * Which address the suite's requests to a CONTRACT_TARGET leave from (docs/contract-suite.md, "Codes without
 * /__mock"). A target without /__mock cannot be reset between checks, and its per-client limits (100 sign-ups,
 * sign-ins and code checks per 15 minutes) would refuse a run of hundreds of checks from one address, or a second
 * run within 15 minutes. A target on 127.0.0.0/8 is therefore reached from a loopback address of each check's own,
 * picked at random per run, as hundreds of visitors would reach it; a limit one check reaches is still its own.
 */
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { isIPv4 } from 'node:net'
import { randomInt } from 'node:crypto'
import { Agent as FetchAgent } from 'undici'
import { TestRunner, type TaskMeta } from 'vitest'

declare module 'vitest' {
  interface TaskMeta {
    /** The loopback address this check's requests to the target leave from. */
    clientAddress?: string
  }
}

/** Whether requests to `baseUrl` can leave from another loopback address: an IPv4 literal of 127.0.0.0/8. */
export function isLoopbackTarget(baseUrl: string): boolean {
  const { hostname } = new URL(baseUrl)
  return isIPv4(hostname) && hostname.startsWith('127.')
}

/** A random address of 127.0.0.0/8 other than 127.0.0.1 and the network's first and last. */
export function randomLoopbackAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
}

/** Requests made outside a check (a beforeAll) share one address per worker. */
const WORKER_ADDRESS = randomLoopbackAddress()

const addressOf = (meta: TaskMeta | undefined): string => {
  if (!meta) return WORKER_ADDRESS
  meta.clientAddress ??= randomLoopbackAddress()
  return meta.clientAddress
}

/** From now on the running check's requests leave from a fresh address: a new visitor (a model run, say). */
export function newClientAddress(): void {
  const meta = TestRunner.getCurrentTest()?.meta
  if (meta) meta.clientAddress = randomLoopbackAddress()
}

/** The dispatcher a `fetch` to `baseUrl` goes through (fetch's `dispatcher` option): like clientAgentFor. */
export function clientDispatcherFor(baseUrl: string): FetchAgent | undefined {
  if (!isLoopbackTarget(baseUrl)) return undefined
  return new FetchAgent({ localAddress: addressOf(TestRunner.getCurrentTest()?.meta) })
}

/**
 * The HTTP agent a request to `baseUrl` goes through: one leaving from the running check's own loopback address
 * when the target is on loopback, else none (Node's default).
 */
export function clientAgentFor(baseUrl: string): HttpAgent | undefined {
  if (!isLoopbackTarget(baseUrl)) return undefined
  // Kept alive as Node's default agent is, so a request says `Connection: keep-alive` and its answer says for how long.
  const options = { localAddress: addressOf(TestRunner.getCurrentTest()?.meta), keepAlive: true }
  return baseUrl.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options)
}
