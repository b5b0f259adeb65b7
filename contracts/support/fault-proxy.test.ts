import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startFaultProxy, withJson } from '#contracts/support/fault-proxy.ts'

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A server that echoes what it was sent as JSON, with two cookies; `/drop` loses the connection. */
async function startEcho() {
  const server = createServer((req, res) => {
    if (req.url === '/drop') return req.socket.destroy()
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      res.setHeader('Set-Cookie', ['a=1; HttpOnly', 'b=2; SameSite=Lax'])
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, body }))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

test('passes a call through as it was answered: status, every cookie, body; the Host as the client sent it', async () => {
  const proxy = await startFaultProxy(await startEcho(), {})
  closers.push(proxy.close)
  const response = await fetch(`${proxy.origin}/api/x?q=1`, { method: 'POST', body: 'hello' })
  expect(response.status).toBe(201)
  expect(response.headers.getSetCookie()).toEqual(['a=1; HttpOnly', 'b=2; SameSite=Lax'])
  expect(await response.json()).toEqual({
    method: 'POST',
    url: '/api/x?q=1',
    host: new URL(proxy.origin).host,
    body: 'hello',
  })
  expect(proxy.replaced()).toBe(0)
})

test('a fault replaces the answers of its route only, sees the request, and is counted', async () => {
  const proxy = await startFaultProxy(await startEcho(), {
    'POST /api/x': (call) => withJson(call.answer, { seen: call.json() }),
  })
  closers.push(proxy.close)
  const replaced = await fetch(`${proxy.origin}/api/x?q=1`, { method: 'POST', body: '{"a":1}' })
  expect(await replaced.json()).toEqual({ seen: { a: 1 } })
  expect(replaced.headers.getSetCookie()).toHaveLength(2)
  expect(((await (await fetch(`${proxy.origin}/api/y`)).json()) as { url: string }).url).toBe('/api/y')
  expect(proxy.replaced()).toBe(1)
})

test('a connection the server drops is dropped to the client as well', async () => {
  const proxy = await startFaultProxy(await startEcho(), {})
  closers.push(proxy.close)
  await expect(fetch(`${proxy.origin}/drop`)).rejects.toThrow()
})
