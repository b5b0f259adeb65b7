// The Node host drops a lost answer for real: the connection closes before a whole status line was written
// (a few bytes of it, so that a browser does not resend the request on its own: hosts/answers.ts).
import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Server } from 'node:http'
import request from 'supertest'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createApp, type MockApp } from '../app.ts'
import { securityHeaders } from './security-headers.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'

let app: MockApp
let server: Server
beforeEach(async () => {
  app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
})
afterEach(() => new Promise((resolve) => server.close(resolve)))

/** Sends one request over a plain socket and returns every byte the server wrote before closing. */
function rawGet(path: string): Promise<string> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
    })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('close', () => resolve(received))
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(received) : reject(error),
    )
  })
}

test('a dropped answer closes the connection before a whole status line', async () => {
  expect(await rawGet('/api/_auth/session')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
  await app.core.ops.scenarios.arm({ name: 'answer-lost', operation: 'getSession' })
  expect(await rawGet('/api/_auth/session')).toBe('HTTP/1.1 ')
  expect((await app.core.ops.journal.list()).at(-1)).toMatchObject({
    operation: 'getSession',
    status: 200,
    scenario: 'answer-lost',
  })
  expect(await rawGet('/api/_auth/session')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
})

test('supertest sees the connection reset', async () => {
  await app.core.ops.scenarios.arm({ name: 'answer-lost', operation: 'login' })
  await expect(
    request(app)
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' }),
  ).rejects.toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' })
})

test('every way out carries the same security headers: an API answer, a web file, the 404, a refusal', async () => {
  const root = scratchDir('host-headers')
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(root, 'robots.txt'), 'User-agent: *\n')
  const web = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, webRoot: root, trustProxyHops: 1 })
  const answers = await Promise.all([
    request(web).get('/api/_auth/session').expect(200),
    request(web).get('/robots.txt').expect(200),
    request(web).get('/login').expect(200),
    request(web).get('/config.json').expect(200),
    request(web).get('/nothing/here.txt').expect(404),
    request(web).post('/assets/x.js').expect(405),
    request(web).get('/a%2fb').expect(400),
  ])
  for (const answer of answers) {
    for (const [name, value] of Object.entries(securityHeaders(false)))
      expect(answer.headers[name], `${answer.status} ${name}`).toBe(value)
    expect(answer.headers['strict-transport-security']).toBeUndefined()
  }
  const secure = await request(web).get('/robots.txt').set('X-Forwarded-Proto', 'https').expect(200)
  expect(secure.headers['strict-transport-security']).toBe(securityHeaders(true)['strict-transport-security'])
})

test('a body refused as too large is read and thrown away until it ends: the client writing it sees no reset', async () => {
  // A balancer streaming the body (nginx) writes on after the 413 has come; a reset there is a 502 to its client.
  const { port } = server.address() as AddressInfo
  const rest = Buffer.alloc(3 << 20, 'x')
  const socket = connect(port, '127.0.0.1')
  const errors: string[] = []
  socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message))
  let received = ''
  socket.setEncoding('latin1')
  const head = new Promise<void>((resolve) =>
    socket.on('data', (chunk: string) => {
      received += chunk
      if (received.includes('\r\n\r\n')) resolve()
    }),
  )
  const closed = new Promise((resolve) => socket.on('close', resolve))
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    `POST /api/auth/forgot HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${rest.length + 2}\r\n\r\n{"`,
  )
  await head
  socket.write(rest)
  await closed
  expect(errors).toEqual([])
  expect(received).toMatch(/^HTTP\/1\.1 413 /)
  expect(received).toMatch(/connection: close/i)
  expect(received).toContain('"error":"payload_too_large"')
})
