// What the tested nginx block (auth-shell.nginx.conf) does when an instance is gone, against real nginx: a call to an
// instance that refuses the connection (stopped, restarting) goes to the next one, so a rolling restart answers no
// 502; a POST an instance has taken is never sent to another, so a write never runs twice.
import { type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { ensureNginx } from '../nginx.ts'
import { startNginx } from './nginx-process.ts'

const nginx = ensureNginx()
const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** An instance that answers every call 200 and counts them by method; `drop` takes a POST and closes unanswered. */
async function instance(behaviour: 'answer' | 'drop' = 'answer') {
  const calls = { GET: 0, POST: 0 }
  const server: Server = createServer((request, response) => {
    const method = request.method === 'POST' ? 'POST' : 'GET'
    request.resume()
    request.on('end', () => {
      calls[method] += 1
      if (behaviour === 'drop' && method === 'POST') return void request.socket.destroy()
      response.end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const stop = () => {
    server.closeAllConnections()
    server.close()
  }
  cleanup.push(stop)
  return { port: (server.address() as AddressInfo).port, calls, stop }
}

async function balancerIn(front: number[]) {
  const dir = mkdtempSync(join(tmpdir(), 'auth-shell-next-upstream-'))
  mkdirSync(join(dir, 'client_body'))
  const { child, origin } = await startNginx((nginx as { path: string }).path, dir, front)
  cleanup.push(async () => {
    await stop(child)
    rmSync(dir, { recursive: true, force: true })
  })
  return origin
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

const send = (origin: string, method: 'GET' | 'POST') =>
  fetch(`${origin}/api/auth/signup`, { method, ...(method === 'POST' && { body: '{}' }) }).then(
    async (response) => (await response.body?.cancel(), response.status),
  )

describe.skipIf('skipped' in nginx)('nginx in front of the instances', () => {
  test('an instance that stops, and then refuses connections, costs no call a 502: each goes to the next', async () => {
    const stopping = await instance()
    const running = await instance()
    const origin = await balancerIn([stopping.port, running.port])
    stopping.stop()
    const statuses: number[] = []
    for (let i = 0; i < 10; i += 1) statuses.push(await send(origin, 'POST'), await send(origin, 'GET'))
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    expect(running.calls.POST).toBe(10)
  }, 60_000)

  test('a POST an instance took and failed is answered 502, and never sent to another', async () => {
    const failing = await instance('drop')
    const running = await instance()
    const origin = await balancerIn([failing.port, running.port])
    const statuses: number[] = []
    for (let i = 0; i < 10; i += 1) statuses.push(await send(origin, 'POST'))
    expect(failing.calls.POST).toBeGreaterThan(0)
    // Each POST ran once: the 200s on the running instance, the 502s on the failing one and nowhere else.
    expect({
      answered: statuses.filter((status) => status === 200).length,
      failed: statuses.filter((status) => status === 502).length,
    }).toEqual({ answered: running.calls.POST, failed: failing.calls.POST })
  }, 60_000)
})
