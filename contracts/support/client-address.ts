/**
 * Which address the suite's requests to a CONTRACT_TARGET leave from (docs/contract-suite.md, "Codes without
 * /__mock"). A target without /__mock cannot be reset between checks, and its per-client limits (100 sign-ups,
 * sign-ins and code checks per 15 minutes) would refuse a run of hundreds of checks from one address, or a second
 * run within 15 minutes. A target on 127.0.0.0/8 is therefore reached from a loopback address of each check's own,
 * picked at random per run, as hundreds of visitors would reach it; a limit one check reaches is still its own.
 */
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { randomInt } from 'node:crypto'
import { Agent as FetchAgent } from 'undici'
import { TestRunner, type TaskMeta } from 'vitest'
import { isLoopbackTarget } from '#contracts/support/loopback-target.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** The loopback address this check's requests to the target leave from. */
    clientAddress?: string
    /** The address of each named client of the check (asClient). */
    namedClients?: Record<string, string>
  }
}

/** A random address of 127.0.0.0/8 other than 127.0.0.1 and the network's first and last. */
function randomLoopbackAddress(): string {
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

/**
 * Makes the requests `make` starts leave from the address the running check gave the client `name` (a fresh one the
 * first time): an attacker and an owner, say, as two visitors of the target. Requests started outside it keep the
 * check's own address.
 * @example const res = await asClient('attacker', () => api.post('/api/auth/login')).send(body)
 */
export function asClient<T>(name: string, make: () => T): T {
  const meta = TestRunner.getCurrentTest()?.meta
  if (!meta) return make()
  const own = meta.clientAddress
  meta.namedClients ??= {}
  meta.clientAddress = meta.namedClients[name] ??= randomLoopbackAddress()
  try {
    return make()
  } finally {
    meta.clientAddress = own
  }
}

export interface ClientAgents {
  /** The HTTP agent of a supertest request to `baseUrl`: from the running check's own address; none off loopback. */
  http(baseUrl: string): HttpAgent | undefined
  /** The dispatcher of a `fetch` to `baseUrl` (fetch's `dispatcher` option), likewise. */
  fetch(baseUrl: string): FetchAgent | undefined
}

/**
 * The agents of the last `keep` client addresses, reused by every request from that address. An agent per request
 * left each connection idle on the target for its keep-alive time: about 300 open at once in one run, and two runs
 * went past the server's 512 and were cut off. An older address's agent closes its idle connections.
 */
export function createClientAgents(keep = 4): ClientAgents {
  const agents = new Map<string, { agent: HttpAgent | FetchAgent; drop: () => void }>()
  function kept<T extends HttpAgent | FetchAgent>(key: string, make: () => T, drop: (agent: T) => void): T {
    const found = agents.get(key)
    agents.delete(key)
    const entry = found ?? { agent: make(), drop: () => undefined }
    if (!found) entry.drop = () => drop(entry.agent as T)
    agents.set(key, entry) // the newest last
    for (const [oldest, old] of agents) {
      if (agents.size <= keep) break
      agents.delete(oldest)
      old.drop()
    }
    return entry.agent as T
  }
  const addressNow = () => addressOf(TestRunner.getCurrentTest()?.meta)
  return {
    http(baseUrl) {
      if (!isLoopbackTarget(baseUrl)) return undefined
      const localAddress = addressNow()
      // Kept alive as Node's default agent is, so a request says `Connection: keep-alive` and its answer says for
      // how long.
      const options = { localAddress, keepAlive: true }
      const https = baseUrl.startsWith('https:')
      return kept(
        `${https ? 'https' : 'http'} ${localAddress}`,
        () => (https ? new HttpsAgent(options) : new HttpAgent(options)),
        (agent) => {
          for (const sockets of Object.values(agent.freeSockets))
            for (const socket of sockets ?? []) socket.destroy()
        },
      )
    },
    fetch(baseUrl) {
      if (!isLoopbackTarget(baseUrl)) return undefined
      const localAddress = addressNow()
      return kept(
        `fetch ${localAddress}`,
        () => new FetchAgent({ localAddress }),
        (agent) => void agent.close().catch(() => undefined),
      )
    },
  }
}
