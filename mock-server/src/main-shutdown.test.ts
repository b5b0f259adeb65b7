// `npm run mock` stopped as an orchestrator stops it (SIGTERM): the request in flight gets its answer, a new
// connection is refused, what is pending is written, and the process exits 0 (docs/mock-server.md, Stopping).
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { EMBEDDED_START, embeddedStartsTimeout, runMain } from '../testing/run-main.ts'

const LISTENING = /listening on (http:\/\/\S+)/

/** A server on the --data folder `dataFile` (made on the first start), once it listens, and its origin. */
async function startOnFolder(dataFile: string) {
  const server = await runMain(
    ['--port', '0', '--web', 'none', '--data', dataFile],
    LISTENING,
    {},
    EMBEDDED_START,
  )
  return { server, origin: LISTENING.exec(server.output)![1]! }
}

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
/** Long enough that SIGTERM surely lands while the call is held, on a loaded machine too. */
const HOLD_MS = 4_000

function json(origin: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

/** Whether a new connection is refused; the port is the server's, whose listener is closed. */
function isRefused(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

test(
  'SIGTERM: the call in flight is answered, new connections are refused, the state is kept, exit 0',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-shutdown-'))
    const dataFile = join(dir, 'state')
    const { server, origin } = await startOnFolder(dataFile)
    try {
      const login = await json(origin, '/api/auth/login', ADA)
      const { token } = (await login.json()) as { token: string }
      const armed = await json(origin, '/__mock/scenarios', {
        name: 'latency',
        operation: 'getMe',
        delay_ms: HOLD_MS,
      })
      expect(armed.status).toBe(201)
      const inFlight = fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${token}` } })
      // The call has taken the scenario once it is no longer armed: it is in flight, held by the server.
      for (;;) {
        const listed = (await (await fetch(`${origin}/__mock/scenarios`)).json()) as { armed: unknown[] }
        if (listed.armed.length === 0) break
      }
      server.stop()
      await server.waitFor(/Stopping \(SIGTERM\): 1 request in flight, waiting at most 10 s\./)
      expect(await isRefused(origin)).toBe(true)
      const answer = await inFlight
      expect(answer.status).toBe(200)
      expect(((await answer.json()) as { email: string }).email).toBe(ADA.email)
      expect(await server.code).toBe(0)
      expect(server.read()).toMatch(/Mock server stopped\.\n$/)
      // The sign-in's session is in the store: a server started again on the folder has it.
      const { server: again, origin: restarted } = await startOnFolder(dataFile)
      try {
        const state = (await (await fetch(`${restarted}/__mock/state`)).json()) as {
          store: { users: { id: string; email: string }[]; sessions: { userId: string }[] }
        }
        const ada = state.store.users.find((user) => user.email === ADA.email)!
        expect(state.store.sessions.some((session) => session.userId === ada.id)).toBe(true)
      } finally {
        again.stop()
        await again.code
      }
    } finally {
      server.stop()
      await server.code
      rmSync(dir, { recursive: true, force: true })
    }
  },
  embeddedStartsTimeout(2),
)

test('SIGTERM with nothing in flight stops at once with its two lines, and /readyz was ready until then', async () => {
  const server = await runMain(['--port', '0', '--web', 'none', '--production'], LISTENING)
  const origin = LISTENING.exec(server.output)![1]!
  const ready = await fetch(`${origin}/readyz`)
  expect(ready.status).toBe(200)
  expect(await ready.json()).toEqual({ status: 'ok', checks: {} })
  server.stop()
  expect(await server.code).toBe(0)
  expect(server.read()).toMatch(/Stopping \(SIGTERM\)\.\n(.*\n)?Mock server stopped\.\n$/)
}, 60_000)
