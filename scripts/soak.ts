/**
 * The soak (attack suite T18, docs/security/attack-suite.md): waves of simulated users cycle sign-in, refreshes
 * and log-out while the server's clock moves on. It prints latency, heap and record counts, and checks that
 * memory ends within 1.2x of the start. It fails only on a 5xx or a failed call of the cycle.
 *
 * `npm run soak` (SOAK_USERS, SOAK_WAVE, SOAK_REFRESHES). The sign-in rate limit is lifted,
 * because every simulated user comes from the same loopback address.
 */
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createMockClient } from '../api/mock-client.ts'
import { createApp } from '../mock-server/src/app.ts'
import { createUser } from '../mock-server/src/product/domain/users.ts'

const USERS = Number(process.env.SOAK_USERS ?? 1000)
const WAVE = Number(process.env.SOAK_WAVE ?? 20)
const REFRESHES = Number(process.env.SOAK_REFRESHES ?? 20)
const PASSWORD = 'a long enough passphrase'
const MINUTE = 60_000
const MIB = 1024 * 1024
const UNLIMITED = { max: Number.MAX_SAFE_INTEGER, windowMs: 15 * MINUTE }

const latencies: number[] = []
const statuses = new Map<number, number>()
const failures: string[] = []

async function call(origin: string, method: string, path: string, init: RequestInit = {}) {
  const started = performance.now()
  const response = await fetch(`${origin}${path}`, { method, ...init })
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  latencies.push(performance.now() - started)
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  if (response.status !== 200 && failures.length < 20)
    failures.push(`${method} ${path} → ${response.status} ${JSON.stringify(body)}`)
  return { response, body: body ?? {} }
}

const json = (body: unknown): RequestInit => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** One user's cycle: sign in, refresh REFRESHES times with each new token, read /api/me, log out. */
async function cycle(origin: string, email: string): Promise<void> {
  const login = await call(origin, 'POST', '/api/auth/login', json({ email, password: PASSWORD }))
  const cookie = login.response.headers.getSetCookie()[0]?.split(';')[0] ?? ''
  let token = String(login.body.token)
  let refreshToken = String(login.body.refresh_token)
  for (let n = 0; n < REFRESHES; n += 1) {
    const refreshed = await call(origin, 'POST', '/api/refresh_token', json({ refresh_token: refreshToken }))
    token = String(refreshed.body.token)
    refreshToken = String(refreshed.body.refresh_token)
  }
  await call(origin, 'GET', '/api/me', { headers: { authorization: `Bearer ${token}` } })
  await call(origin, 'DELETE', '/api/_auth/session', {
    headers: { authorization: `Bearer ${token}`, cookie, 'sec-fetch-site': 'same-origin' },
  })
}

type Gc = (() => void) | undefined
function measureHeap(): number {
  ;(globalThis as { gc?: Gc }).gc?.()
  return process.memoryUsage().heapUsed
}

/**
 * The records purging must give back. The journal is left out: it is a fixed-size ring, full by design.
 */
async function storeSize(
  app: ReturnType<typeof createApp>,
): Promise<{ total: number; by: Record<string, number> }> {
  const { domain, mailbox } = app.core.ops
  const by: Record<string, number> = Object.fromEntries(
    Object.entries(domain.store).map(([name, collection]) => [name, collection.all().length]),
  )
  by.mails = (await mailbox.snapshot()).length
  return { total: Object.values(by).reduce((sum, n) => sum + n, 0), by }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0
}

async function main(): Promise<void> {
  const app = createApp({ loginRateLimit: UNLIMITED, mailRateLimit: UNLIMITED })
  await app.core.ready
  const server = app.listen(0, '127.0.0.1')
  // Longer than any pause of the run, so no keep-alive race fails a call.
  server.keepAliveTimeout = 10 * MINUTE
  await once(server, 'listening')
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const emails = Array.from({ length: USERS }, (_, n) => `soak-${n}@example.test`)
  await Promise.all(
    emails.map((email) =>
      createUser(app.core.ops.domain, { email, name: 'Soak', password: PASSWORD, verified: true }),
    ),
  )
  const mock = createMockClient({ baseUrl: origin })
  const advance = (ms: number) => mock.advanceClock(ms)
  const cold = measureHeap()
  // Warm-up: one wave, then purged as at the end. The start is measured after it, so first-use caches
  // do not pass for growth.
  await Promise.all(emails.slice(0, WAVE).map((email) => cycle(origin, email)))
  await advance(25 * 60 * MINUTE)
  await call(origin, 'GET', '/api/_auth/session')
  await app.core.ops.journal.clear()
  const start = { heap: measureHeap(), store: await storeSize(app) }
  const peak = { heap: start.heap, store: start.store.total }
  const began = performance.now()
  for (let first = 0; first < USERS; first += WAVE) {
    await Promise.all(emails.slice(first, first + WAVE).map((email) => cycle(origin, email)))
    await advance(16 * MINUTE) // past the access-token lifetime
    peak.heap = Math.max(peak.heap, process.memoryUsage().heapUsed)
    peak.store = Math.max(peak.store, (await storeSize(app)).total)
    const done = Math.min(first + WAVE, USERS)
    if (done % 100 === 0 || done === USERS)
      process.stderr.write(
        `${done} users done, ${latencies.length} calls, ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
      )
  }
  const seconds = (performance.now() - began) / 1000
  await advance(25 * 60 * MINUTE) // past every lifetime: refresh families (24 h), codes, lock-outs, windows
  await call(origin, 'GET', '/api/_auth/session')
  const journalEntries = (await app.core.ops.journal.list()).length
  const heapWithJournal = measureHeap()
  // The heap once the journal's ring is emptied: what is left is what purging had to give back.
  await app.core.ops.journal.clear()
  const end = { heap: measureHeap(), store: await storeSize(app) }
  server.closeAllConnections()
  server.close()

  const sorted = [...latencies].sort((a, b) => a - b)
  const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0)
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`
  const within = (a: number, b: number) => (a <= 1.2 * b ? 'within 1.2x' : 'NOT within 1.2x')
  const lines = [
    `Soak: ${USERS} users, ${WAVE} at a time, each sign-in → ${REFRESHES} refreshes → /api/me → log-out`,
    `calls: ${latencies.length} in ${seconds.toFixed(1)} s; statuses ${[...statuses].map(([s, n]) => `${s} x ${n}`).join(', ')}; 5xx: ${fivexx}`,
    `latency ms: p50 ${percentile(sorted, 0.5).toFixed(1)}, p99 ${percentile(sorted, 0.99).toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`,
    `heap MiB${(globalThis as { gc?: Gc }).gc ? ' (after GC)' : ' (no --expose-gc: without GC)'}, the journal's ring emptied at the end: start ${(start.heap / MIB).toFixed(1)}, peak ${(peak.heap / MIB).toFixed(1)}, end ${(end.heap / MIB).toFixed(1)} (${ratio(end.heap, start.heap)}, ${within(end.heap, start.heap)})`,
    `heap before the warm-up wave: ${(cold / MIB).toFixed(1)} MiB`,
    `heap with the journal's ring still full (${journalEntries} entries, its cap): ${(heapWithJournal / MIB).toFixed(1)} MiB`,
    `store records: start ${start.store.total}, peak ${peak.store}, end ${end.store.total} (${ratio(end.store.total, start.store.total)}, ${within(end.store.total, start.store.total)})`,
    `  at start: ${JSON.stringify(start.store.by)}`,
    `  at end:   ${JSON.stringify(end.store.by)}`,
    ...(failures.length > 0
      ? ['calls that did not succeed (first 20):', ...failures.map((f) => `  ${f}`)]
      : []),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  if (fivexx > 0 || failures.length > 0) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error, (error as { cause?: unknown }).cause ?? '')
  process.exit(1)
})
