// Operations without a body never read one (docs/security/hardening.md), whatever the request carries.
// Body errors (400, 413, 415) come only from operations that document a body.
import type { Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createApp } from '#mock-server/app.ts'
import { createHttpServer } from '#mock-server/hosts/http-server.ts'
import { createRoutes } from '#mock-server/pipeline/openapi-docs.ts'
import { createContractAgent, requireValidResponse, type ContractAgent } from '#contracts/support/api.ts'
import {
  bearer,
  createTestServer,
  requireControl,
  signUp,
  TEST_APP_OPTIONS,
  type SignedIn,
  type TestServer,
} from '#contracts/fixtures.ts'
import {
  countTargetRequest,
  notCheckable,
  requireDirectConnection,
  TARGET_URL,
} from '#contracts/support/target.ts'

const JUNK_GZIP = Buffer.from('this is not gzip, whatever the header says')
const HUNDRED_KB = 'x'.repeat(100 * 1024)

let server: TestServer
let account: SignedIn
let prepared = false
// Made in the first test, not a beforeAll: without /__mock the sign-up must skip tests, not fail the file.
beforeEach(async () => {
  if (prepared) return
  server = await createTestServer()
  account = await signUp(server.api, 'bodyless')
  prepared = true
})

describe('a body sent to an operation that takes none is ignored', () => {
  test('GET /api/me with a junk gzip body answers as without it', async () => {
    const signedIn = await server.api
      .get('/api/me')
      .set(bearer(account.token))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(JUNK_GZIP)
      .expect(200)
    expect(signedIn.body).toEqual(account.user)
    const anonymous = await server.api
      .get('/api/me')
      .set('Content-Encoding', 'gzip')
      .set('Content-Type', 'application/octet-stream')
      .send(JUNK_GZIP)
      .expect(401)
    expect(anonymous.body).toEqual({ message: 'Sign in to continue.' })
  })

  test('DELETE /api/_auth/session with a 100 KB text/plain body ends the session', async () => {
    const other = await signUp(server.api, 'bodyless-delete')
    const res = await server.api
      .delete('/api/_auth/session')
      .set('Cookie', other.cookie)
      .set('Content-Type', 'text/plain')
      .send(HUNDRED_KB)
      .expect(200)
    expect(res.body).toEqual({ loggedOut: true })
    expect((await server.api.get('/api/_auth/session').set('Cookie', other.cookie).expect(200)).body).toEqual(
      {},
    )
  })

  test('GET /__mock/mailbox with a body, of a type and encoding the server does not take, reads the mailbox', async () => {
    const path = `/__mock/mailbox?email=${encodeURIComponent(account.email)}`
    const plain = await server.api.get(path).expect(200)
    const res = await server.api
      .get(path)
      .set('Content-Type', 'application/xml')
      .set('Content-Encoding', 'br')
      .send('<not-json/>')
      .expect(200)
    expect(res.body).toEqual(plain.body)
  })

  // Every GET and DELETE that documents no requestBody. Left out: DELETE /__mock/scenarios, whose guard refuses
  // first (docs/security/surface.md). Also the API viewer, whose 1 MB answer races a kernel reset
  // (docs/decisions/019-cli-and-docs.md).
  const bodyless = [...createRoutes('api'), ...createRoutes('control')].filter(
    (route) =>
      (route.method === 'GET' || route.method === 'DELETE') &&
      !route.bodyType &&
      route.operationId !== 'clearScenarios' &&
      route.operationId !== 'getDocsViewer',
  )
  test.each(bodyless.map((route) => [route.method, route.template] as const))(
    '%s %s answers with a 100 KB br-encoded text body as without one',
    async (method, template) => {
      const path = template.replace(/\{[^}]+\}/g, 'x')
      const without = await server.api.request(method, path).set(bearer(account.token))
      const withBody = await server.api
        .request(method, path)
        .set(bearer(account.token))
        .set('Content-Type', 'text/plain')
        .set('Content-Encoding', 'br')
        .send(HUNDRED_KB)
      // The same answer (the clock's `now` moves between the two calls, so JSON is compared by its fields and error).
      expect(withBody.status).toBe(without.status)
      expect(withBody.headers['content-type']).toBe(without.headers['content-type'])
      if (typeof without.body === 'object' && without.body !== null && !Buffer.isBuffer(without.body)) {
        expect(Object.keys(withBody.body)).toEqual(Object.keys(without.body))
        expect(withBody.body.error).toBe(without.body.error)
      } else expect(withBody.text).toBe(without.text)
      expect([413, 415]).not.toContain(withBody.status)
    },
  )
})

// Raw sockets, since a client library would hide framing and Expect: to a server of the file's own, or straight to
// a plain-http target.
describe('on the wire', () => {
  beforeEach(() => {
    requireDirectConnection('speaks raw HTTP/1.1 to the server')
    if (TARGET_URL && new URL(TARGET_URL).protocol !== 'http:')
      notCheckable('speaks plain HTTP/1.1 over a socket, and the target is https')
  })
  let httpServer: Server | undefined
  let host = '127.0.0.1'
  let port: number
  /** The Host header the requests carry: the target's, or the file's own server's. */
  let hostHeader = ''
  let api: ContractAgent
  /** What a call of /__mock carries: the target's control token, if it has one. */
  let controlHeaders: Record<string, string> = {}
  const sockets: Socket[] = []
  beforeAll(async () => {
    if (TARGET_URL) {
      const target = new URL(TARGET_URL)
      // An IPv6 literal is bracketed in a URL and a Host header, never in a socket's address.
      host = target.hostname.replace(/^\[(.*)\]$/, '$1')
      port = Number(target.port || 80)
      hostHeader = target.host
      ;({ api, controlHeaders } = await createTestServer())
      return
    }
    const app = createApp(TEST_APP_OPTIONS)
    await app.core.ready
    httpServer = createHttpServer(app)
    await new Promise<void>((resolve) => httpServer!.listen(0, '127.0.0.1', resolve))
    port = (httpServer.address() as AddressInfo).port
    hostHeader = `127.0.0.1:${port}`
    api = createContractAgent(`http://127.0.0.1:${port}`)
  })
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy()
  })
  afterAll(async () => {
    if (!httpServer) return
    httpServer.closeAllConnections()
    await new Promise((resolve) => httpServer!.close(resolve))
  })

  interface Answer {
    /** Everything the server sent, as text. */
    raw: string
    status: number
    headers: Record<string, string>
    body: unknown
  }

  /** Sends `request` and resolves with the server's answer once it closes the connection; interim answers are kept in `raw`. */
  function exchange(request: string): Promise<Answer> {
    const socket = connect(port, host)
    if (TARGET_URL) countTargetRequest()
    sockets.push(socket)
    socket.on('error', () => {})
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    socket.write(request)
    return new Promise((resolve) => socket.on('close', () => resolve(parseFinal(received))))
  }

  function parseFinal(raw: string): Answer {
    const final = raw.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '')
    const split = final.indexOf('\r\n\r\n')
    const [statusLine = '', ...lines] = final.slice(0, split).split('\r\n')
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    )
    const text = final.slice(split + 4)
    const body: unknown =
      /json/.test(headers['content-type'] ?? '') && text !== '' ? JSON.parse(text) : text || undefined
    return { raw, status: Number(statusLine.split(' ')[1]), headers, body }
  }

  const head = (method: string, path: string, headers: Record<string, string | number>) =>
    [
      `${method} ${path} HTTP/1.1`,
      `Host: ${hostHeader}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ].join('\r\n')

  /** A chunked body whose first chunk size is not hexadecimal: framing no parser can read. */
  const BROKEN_CHUNKS = 'zz\r\nnot a chunk\r\n0\r\n\r\n'

  function validated(method: string, path: string, answer: Answer): Answer {
    requireValidResponse({ method, path, status: answer.status, headers: answer.headers, body: answer.body })
    return answer
  }

  test('GET /api/_auth/session with a chunked body no parser can read answers as without it', async () => {
    const answer = await exchange(
      head('GET', '/api/_auth/session', { 'Transfer-Encoding': 'chunked' }) + BROKEN_CHUNKS,
    )
    expect(validated('GET', '/api/_auth/session', answer)).toMatchObject({ status: 200, body: {} })
    expect(answer.headers.connection).toBe('close')
  })

  test('DELETE /api/_auth/session with a chunked body no parser can read still ends the session', async () => {
    const other = await signUp(api, 'bodyless-wire')
    const answer = await exchange(
      head('DELETE', '/api/_auth/session', {
        'Transfer-Encoding': 'chunked',
        'Content-Type': 'text/plain',
        Cookie: other.cookie,
      }) + BROKEN_CHUNKS,
    )
    expect(validated('DELETE', '/api/_auth/session', answer)).toMatchObject({
      status: 200,
      body: { loggedOut: true },
    })
  })

  test('GET /__mock/mailbox with a gzip body that is not gzip, sent in broken chunks, reads the mailbox', async () => {
    requireControl(api)
    const answer = await exchange(
      head('GET', '/__mock/mailbox', {
        ...controlHeaders,
        'Transfer-Encoding': 'chunked',
        'Content-Encoding': 'gzip',
      }) + BROKEN_CHUNKS,
    )
    expect(validated('GET', '/__mock/mailbox', answer)).toMatchObject({ status: 200 })
  })

  test('GET /api/me with Expect: 100-continue is answered without inviting a body it would not read', async () => {
    const answer = await exchange(
      head('GET', '/api/me', {
        Expect: '100-continue',
        'Content-Length': 100 * 1024,
        'Content-Type': 'text/plain',
      }),
    )
    expect(answer.raw).not.toMatch(/^HTTP\/1\.1 100 /)
    expect(validated('GET', '/api/me', answer)).toMatchObject({
      status: 401,
      body: { message: 'Sign in to continue.' },
    })
    expect(answer.headers.connection).toBe('close')
  })

  test('an operation that takes a body still invites it (100 Continue), reads it, and refuses one it cannot read', async () => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'a long enough passphrase' })
    const socket = connect(port, host)
    if (TARGET_URL) countTargetRequest()
    sockets.push(socket)
    let received = ''
    const invited = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1')
        if (/^HTTP\/1\.1 100 /.test(received)) resolve()
      }),
    )
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    socket.write(
      head('POST', '/api/auth/login', {
        Expect: '100-continue',
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
      }),
    )
    await invited
    socket.write(body)
    await closed
    expect(validated('POST', '/api/auth/login', parseFinal(received))).toMatchObject({
      status: 401,
      body: { error: 'invalid_credentials' },
    })
    const broken = await exchange(
      head('POST', '/api/auth/login', {
        'Transfer-Encoding': 'chunked',
        'Content-Type': 'application/json',
      }) + BROKEN_CHUNKS,
    )
    expect(broken).toMatchObject({ status: 400, body: { error: 'bad_request', message: expect.any(String) } })
  })
})
