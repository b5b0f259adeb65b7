// The Express host drops a lost answer for real: the connection closes before a whole status line was written
// (a few bytes of it, so that a browser does not resend the request on its own: hosts/express.ts).
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import type { Server } from 'node:http'
import request from 'supertest'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createApp, type MockApp } from '../app.ts'

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
  app.core.ops.scenarios.arm({ name: 'answer-lost', operation: 'getSession' })
  expect(await rawGet('/api/_auth/session')).toBe('HTTP/1.1 ')
  expect(app.core.ops.journal.list().at(-1)).toMatchObject({
    operation: 'getSession',
    status: 200,
    scenario: 'answer-lost',
  })
  expect(await rawGet('/api/_auth/session')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
})

test('supertest sees the connection reset', async () => {
  app.core.ops.scenarios.arm({ name: 'answer-lost', operation: 'login' })
  await expect(
    request(app)
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' }),
  ).rejects.toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' })
})
