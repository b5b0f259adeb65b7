// The hardening of the mock server against hostile input, each rule with the test that proves it
// (policies and figures: docs/security/hardening.md).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { SignJWT, type JWTPayload } from 'jose'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { AppOptions } from '#mock-server/app.ts'
import { HEADERS_TIMEOUT_MS, PENDING_PASSWORD_MS, REQUEST_TIMEOUT_MS } from '#mock-server/shared/constants.ts'
import { SEED_ACCOUNTS } from '#mock-server/product/domain/seed.ts'
import type { ServerLimits } from '#mock-server/hosts/http-server.ts'
import {
  advanceClock,
  arm,
  bearer,
  createTestServer,
  PASSWORD,
  readCode,
  signIn,
  signUp,
  startLiveServer,
  uniqueEmail,
  type TestServer,
} from '#contracts/fixtures.ts'
import { offersExternalSignIn, PUBLIC_ORIGIN } from '#contracts/support/external-sign-in.ts'
import {
  countTargetRequest,
  getContractTarget,
  notCheckable,
  requireDirectConnection,
  TARGET_URL,
} from '#contracts/support/target.ts'
import type { ContractAgent } from '#contracts/support/api.ts'
import { scratchDir } from '../../mock-server/testing/scratch-dir.ts'

let webRoot: string
beforeAll(() => {
  webRoot = mkdtempSync(join(tmpdir(), 'hardening-web-'))
  mkdirSync(join(webRoot, 'assets'))
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(
    join(webRoot, 'assets', 'app-1a2b.js'),
    'console.log(1)\n//# sourceMappingURL=app-1a2b.js.map',
  )
  writeFileSync(join(webRoot, 'assets', 'app-1a2b.js.map'), '{"version":3,"sources":["secret.ts"]}')
  writeFileSync(join(webRoot, 'config.json'), '{}')
  return () => rmSync(webRoot, { recursive: true, force: true })
})

describe('the identity provider redirects only to addresses a Location header can carry', () => {
  test.each([
    `${PUBLIC_ORIGIN}/%C4%80`,
    `${PUBLIC_ORIGIN}/x%7F`,
    `${PUBLIC_ORIGIN}/x%E2%80%A8`,
    `${PUBLIC_ORIGIN}/a%20b`,
    '/.//evil.example',
    '//evil.example/callback',
  ])('GET /idp/authorize with redirect_uri=%s is a 400 page, never a redirect', async (redirect) => {
    const { api } = await createTestServer({ publicOrigin: PUBLIC_ORIGIN })
    const res = await api
      .get(`/idp/authorize?client_id=auth-shell&response_type=code&scope=openid&redirect_uri=${redirect}`)
      .expect(400)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers.location).toBeUndefined()
  })
})

test('a 405 names the methods the path takes in Allow', async () => {
  const { api } = await createTestServer()
  const res = await api.put('/api/me').expect(405)
  expect(res.headers.allow).toBe('GET')
  expect(res.body.error).toBe('method_not_allowed')
})

test('HSTS is sent over https only, never over plain http', async () => {
  const { api } = await createTestServer({ trustProxyHops: 1 })
  const plain = await api.get('/api/_auth/session').expect(200)
  expect(plain.headers['strict-transport-security']).toBeUndefined()
  const secure = await api.get('/api/_auth/session').set('X-Forwarded-Proto', 'https').expect(200)
  expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/)
})

test('X-Forwarded-Proto is read from the trusted hop, not the client-written left-most entry', async () => {
  const { api } = await createTestServer({ trustProxyHops: 1 })
  const spoofed = await api.get('/api/_auth/session').set('X-Forwarded-Proto', 'https, http').expect(200)
  expect(spoofed.headers['strict-transport-security']).toBeUndefined()
  const secure = await api.get('/api/_auth/session').set('X-Forwarded-Proto', 'http, https').expect(200)
  expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/)
})

/** A built web app to check the static rules on, and the stems of the scripts it serves, each with its source map. */
interface WebApp {
  api: ContractAgent
  /** `app-1a2b` for `/assets/app-1a2b.js`; none when the target's index.html names no script under /assets/. */
  stems: string[]
  production: boolean
}

/**
 * In-process, a server over this file's web root; against a target, the target and the scripts its own index.html
 * loads from /assets/ at its root. `mode` asks for a server in that mode, or either.
 */
async function webApp(mode: 'production' | 'either' = 'either'): Promise<WebApp> {
  if (!TARGET_URL) {
    const production = mode === 'production'
    return { api: (await createTestServer({ webRoot, production })).api, stems: ['app-1a2b'], production }
  }
  const { api } = await createTestServer()
  const { production } = await getContractTarget()
  if (mode === 'production' && !production) notCheckable('needs a server in production mode')
  const index = await api.get('/').set('Accept', 'text/html')
  // `npm run mock` serves the app only once `npm run build` has made it (`npm start` does both).
  if (index.status !== 200)
    notCheckable(
      `needs a target that serves the web app, and GET / answers ${index.status} (run npm run build first)`,
    )
  const html = index.text
  const stems = [...html.matchAll(/(?:src|href)="\/assets\/([\w-]+)\.js"/g)].map((match) => match[1]!)
  return { api, stems: [...new Set(stems)], production }
}

/** The app's scripts; a target whose index.html names none under /assets/ cannot be checked for them. */
function scriptsOf(app: WebApp): string[] {
  if (app.stems.length === 0)
    notCheckable("needs a target whose index.html loads its scripts from /assets/ at the target's root")
  return app.stems
}

/** `{stem}` in a path written for any app, filled with one of the app's scripts. */
const pathOf = (template: string, stem: string) => template.replaceAll('{stem}', stem)

test('config.json never echoes the Host header', async () => {
  const app = await webApp()
  // The server makes config.json only where it serves a built web app.
  if (TARGET_URL && (await app.api.get('/config.json')).status === 404)
    notCheckable('needs a target that serves a built web app, and with it config.json')
  const asked = app.api.get('/config.json').set('Host', 'evil.example:4010')
  // Over https the client would check the certificate against that Host; what is judged here is the body.
  if (TARGET_URL?.startsWith('https:')) asked.disableTLSCerts()
  const res = await asked.expect(200)
  expect(JSON.stringify(res.body)).not.toContain('evil.example')
  expect(res.body.mock).toBe(!app.production)
})

test('source maps are served while developing and never in production mode', async () => {
  const development = await createTestServer({ webRoot })
  await development.api.get('/assets/app-1a2b.js.map').expect(200)
  const production = await createTestServer({ webRoot, production: true })
  await production.api.get('/assets/app-1a2b.js').expect(200)
  const res = await production.api.get('/assets/app-1a2b.js.map').expect(404)
  expect(res.text).not.toContain('secret.ts')
})

describe('static paths are decoded once and normalized before any rule reads them', () => {
  test.each([
    '/assets/{stem}.js.map',
    '/assets/{stem}.js%2Emap',
    '/assets/{stem}.js%2emap',
    '/assets/{stem}.js.m%61p',
    '/assets/{stem}%2Ejs%2E%6D%61%70',
    '/assets/./{stem}.js.map',
    '//assets//{stem}.js.map',
    '/x/../assets/{stem}.js.map',
    '/assets/%2e%2e/assets/{stem}.js.map',
  ])('in production mode %s serves no source map, for any script of the app', async (template) => {
    const app = await webApp('production')
    for (const stem of scriptsOf(app)) {
      await app.api.get(pathOf('/assets/{stem}.js', stem)).expect(200)
      const res = await app.api.get(pathOf(template, stem)).expect(404)
      expect(res.body.error).toBe('not_found')
      expect(res.text).not.toContain('"mappings"')
    }
  })

  test.each(['/config%2Ejson', '/%63onfig.json', '/assets/%2e%2e/config.json', '/config.json?x=1'])(
    '%s is the server-made config.json, never the file as it is',
    async (path) => {
      const app = await webApp('production')
      const res = await app.api.get(path).expect(200)
      // What the server says of itself (the file on disk says nothing): production mode, a provider or none.
      expect(res.body).toMatchObject({ mock: false, externalSignIn: await offersExternalSignIn() })
    },
  )

  test.each(['/assets%2F{stem}.js', '/assets%5c{stem}.js', '/assets/{stem}.js%00', '/assets/%E0%A4%A'])(
    '%s (an encoded separator, a NUL or no UTF-8) is a 400 bad_request',
    async (template) => {
      // A proxy refuses a NUL or a broken escape with a page of its own before the server sees it.
      if (/%00|%A$/.test(template)) requireDirectConnection('sends a path a proxy refuses itself')
      const app = await webApp('production')
      const path = template.includes('{stem}') ? pathOf(template, scriptsOf(app)[0]!) : template
      const res = await app.api.get(path).expect(400)
      expect(res.body).toEqual({ error: 'bad_request', message: expect.any(String) })
    },
  )

  test('an unknown asset is a 404 not_found', async () => {
    const { api } = await webApp()
    const res = await api.get('/assets/nope-0000.js').expect(404)
    expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) })
  })
})

test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
  'an unknown field named %s is a 400 that names it',
  async (field) => {
    const { api } = await createTestServer()
    const res = await api
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send(`{"email":"a@b.co","password":"a long enough passphrase","${field}":1}`)
      .expect(400)
    expect(res.body.error).toBe('validation_failed')
    expect(Object.keys(res.body.fields)).toEqual([field])
    expect(res.body.message).toContain(field)
  },
)

describe('access tokens', () => {
  function claimsOf(token: string): JWTPayload {
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as JWTPayload
  }

  /** A token signed with the server's own key: only its claims or header can make it wrong. */
  async function resign(server: TestServer, claims: JWTPayload, typ: string): Promise<string> {
    const key = new TextEncoder().encode(server.app.core.ops.domain.config.secret)
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ }).sign(key)
  }

  test('a token issued in the future, living longer than the access-token lifetime, without the audience, or of another type is token_invalid', async () => {
    const server = await createTestServer()
    const account = await signUp(server.api, 'claims')
    const claims = claimsOf(account.token)
    const header = JSON.parse(Buffer.from(account.token.split('.')[0]!, 'base64url').toString())
    await server.api
      .get('/api/me')
      .set(bearer(await resign(server, claims, header.typ)))
      .expect(200)
    const forged = [
      await resign(server, { ...claims, iat: claims.iat! + 60 }, header.typ),
      await resign(server, { ...claims, exp: claims.iat! + 10 * 365 * 24 * 3600 }, header.typ),
      await resign(server, { ...claims, exp: claims.exp! + 1 }, header.typ),
      await resign(server, { ...claims, aud: undefined }, header.typ),
      await resign(server, { ...claims, aud: 'another-api' }, header.typ),
      await resign(server, claims, 'JWT'),
    ]
    for (const token of forged) {
      const res = await server.api.get('/api/me').set(bearer(token)).expect(401)
      expect(res.body.error).toBe('token_invalid')
    }
  })

  test('a signature spelled otherwise (non-zero trailing bits, padding) is token_invalid, though it decodes alike', async () => {
    const server = await createTestServer()
    const account = await signUp(server.api, 'spelling')
    const [header, payload, signature] = account.token.split('.') as [string, string, string]
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // 32 bytes take 43 characters: the last carries 4 bits and 2 unused ones, which a lenient decoder ignores.
    const last = ALPHABET.indexOf(signature.at(-1)!)
    const trailing = `${signature.slice(0, -1)}${ALPHABET[last ^ 1]}`
    expect(Buffer.from(trailing, 'base64url')).toEqual(Buffer.from(signature, 'base64url'))
    for (const spelled of [trailing, `${signature}=`]) {
      const res = await server.api
        .get('/api/me')
        .set(bearer(`${header}.${payload}.${spelled}`))
        .expect(401)
      expect(res.body.error).toBe('token_invalid')
    }
    await server.api.get('/api/me').set(bearer(account.token)).expect(200)
  })

  test('an unsigned token naming an account neither takes its scenarios nor writes its journal', async () => {
    const server = await createTestServer()
    const victim = await signUp(server.api, 'victim')
    await arm(server.api, { name: 'server-error', email: victim.email, operation: 'getMe' })
    const [, payload] = victim.token.split('.')
    const unsigned = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`
    const res = await server.api.get('/api/me').set(bearer(unsigned)).expect(401)
    expect(res.body.error).toBe('token_invalid')
    const journal = await server.mock.requests(victim.email)
    expect(journal.filter((entry) => entry.operation === 'getMe')).toEqual([])
    // The scenario is still armed for the victim's own call.
    await server.api.get('/api/me').set(bearer(victim.token)).expect(503)
  })

  test("a call is the account it answers for: another account's bearer beside a cookie names no one's session", async () => {
    const server = await createTestServer()
    const ada = await signUp(server.api, 'cookie')
    const grace = await signUp(server.api, 'bearer')
    await arm(server.api, { name: 'server-error', email: grace.email, operation: 'getSession', times: 1 })
    // The session GET reads the cookie only: it answers for ada, is filed under ada, and leaves grace's scenario.
    const session = await server.api
      .get('/api/_auth/session')
      .set('Cookie', ada.cookie)
      .set(bearer(grace.token))
      .expect(200)
    expect(session.body.user.email).toBe(ada.email)
    expect(
      (await server.mock.requests(grace.email)).filter((entry) => entry.operation === 'getSession'),
    ).toEqual([])
    expect(
      (await server.mock.requests(ada.email)).filter((entry) => entry.operation === 'getSession'),
    ).toHaveLength(1)
    await server.api.get('/api/_auth/session').set('Cookie', grace.cookie).expect(503)
  })

  test('a reset token names the account it resets, whatever bearer comes with it', async () => {
    const server = await createTestServer()
    const ada = await signUp(server.api, 'reset')
    const grace = await signUp(server.api, 'bystander')
    await server.api.post('/api/auth/forgot').send({ email: ada.email }).expect(202)
    const code = await readCode(server.api, ada.email, 'reset')
    const verified = await server.api
      .post('/api/auth/otp/verify')
      .send({ email: ada.email, code, purpose: 'reset' })
      .expect(200)
    await arm(server.api, { name: 'server-error', email: ada.email, operation: 'updatePassword' })
    await server.api
      .post('/api/auth/update_password')
      .set(bearer(grace.token))
      .send({ reset_token: verified.body.reset_token, password: 'a-brand-new-password-77' })
      .expect(503)
    const filed = async (email: string) =>
      (await server.mock.requests(email)).filter((entry) => entry.operation === 'updatePassword')
    expect(await filed(ada.email)).toHaveLength(1)
    expect(await filed(grace.email)).toEqual([])
  })
})

// Real servers over raw sockets, since a client library would hide what the server reads and when it hangs up.
const sockets: Socket[] = []
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy()
})

const startServer = (limits: Partial<ServerLimits> = {}, options: AppOptions = {}) =>
  startLiveServer(options, limits)

/**
 * A server of a built web app, spoken to over raw sockets, and one script it serves: in process this file's web root;
 * against a target, the target and the first script its own index.html loads (webApp).
 */
async function staticServer(): Promise<{ port: number; script: string; api: ContractAgent }> {
  if (!TARGET_URL) {
    const live = await startServer({}, { webRoot })
    return { port: live.port, script: '/assets/app-1a2b.js', api: live.api }
  }
  const app = await webApp()
  const url = new URL(TARGET_URL)
  return {
    port: Number(url.port || 80),
    script: pathOf('/assets/{stem}.js', scriptsOf(app)[0]!),
    api: app.api,
  }
}

/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))

/** A socket whose `answer` resolves with everything the server sent once it closed or sent a whole status line. */
async function open(
  port: number,
): Promise<{ socket: Socket; head: Promise<string>; closed: Promise<string> }> {
  // Against a CONTRACT_TARGET, its host (the port is the target's too): these bytes are sent to it, and counted.
  if (TARGET_URL?.startsWith('https:'))
    notCheckable('speaks raw HTTP/1.1 over plain TCP, and the target is reached over https')
  requireDirectConnection('speaks raw HTTP/1.1 to the server itself')
  const socket = connect(port, TARGET_URL ? new URL(TARGET_URL).hostname : '127.0.0.1')
  countTargetRequest()
  sockets.push(socket)
  socket.on('error', () => {})
  let received = ''
  let onHead: (text: string) => void = () => {}
  const head = new Promise<string>((resolve) => (onHead = resolve))
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
    if (received.includes('\r\n\r\n')) onHead(received)
  })
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)))
  await new Promise((resolve) => socket.once('connect', resolve))
  return { socket, head, closed }
}

describe('bodies are read after routing, only for operations that take one, up to their limit', () => {
  const headOf = (method: string, path: string, headers: Record<string, string | number>) =>
    [
      `${method} ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ]
      .concat('', '')
      .join('\r\n')

  test('a 3 MiB POST to an unknown path is answered 404 before its body is sent, and the connection ends', async () => {
    const { port } = await startServer()
    const { socket, head, closed } = await open(port)
    socket.write(
      headOf('POST', '/api/nope', { 'Content-Type': 'application/json', 'Content-Length': 3 << 20 }),
    )
    expect(await head).toMatch(/^HTTP\/1\.1 404 /)
    expect(await closed).toMatch(/connection: close/i)
  })

  test('a 3 MiB POST to an asset is answered 405 before its body is sent, and the connection ends', async () => {
    const { port, script } = await staticServer()
    const { socket, head, closed } = await open(port)
    socket.write(
      headOf('POST', script, {
        'Content-Type': 'application/json',
        'Content-Length': 3 << 20,
      }),
    )
    expect(await head).toMatch(/^HTTP\/1\.1 405 /)
    const answer = await closed
    expect(answer).toMatch(/connection: close/i)
    expect(answer).toMatch(/allow: GET, HEAD/i)
    expect(answer).toContain('"error":"method_not_allowed"')
  })

  test('HEAD on an /api GET is a 405 naming GET, on a static file a 200 like GET; neither sends a body', async () => {
    const { port, script, api } = await staticServer()
    // The file's length as GET sends it, uncompressed: this file's 51 bytes in process, the target's script's there.
    const length = (await api.get(script).set('Accept-Encoding', 'identity').expect(200)).headers[
      'content-length'
    ]
    if (!TARGET_URL) expect(length).toBe('51')
    const apiCall = await open(port)
    apiCall.socket.write(headOf('HEAD', '/api/me', { Connection: 'close' }))
    const apiAnswer = await apiCall.closed
    expect(apiAnswer).toMatch(/^HTTP\/1\.1 405 /)
    expect(apiAnswer).toMatch(/\r\nallow: GET\r\n/i)
    expect(apiAnswer.endsWith('\r\n\r\n')).toBe(true)
    const file = await open(port)
    file.socket.write(headOf('HEAD', script, { Connection: 'close' }))
    const fileAnswer = await file.closed
    expect(fileAnswer).toMatch(/^HTTP\/1\.1 200 /)
    expect(fileAnswer).toMatch(new RegExp(`\\r\\ncontent-length: ${String(length)}\\r\\n`, 'i'))
    expect(fileAnswer.endsWith('\r\n\r\n')).toBe(true)
  })

  test('a declared body over the operation limit is a 413 before a byte of it is read', async () => {
    const { port } = await startServer()
    const { socket, head } = await open(port)
    socket.write(
      headOf('POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': 1 << 20 }),
    )
    const answer = await head
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
  })

  test('an operation that takes no body answers without reading the one sent', async () => {
    const { port } = await startServer()
    const { socket, head } = await open(port)
    socket.write(headOf('GET', '/api/_auth/session', { 'Content-Length': 100 }))
    expect(await head).toMatch(/^HTTP\/1\.1 200 /)
  })

  test('a nested gzip (a few hundred bytes that inflate to 16 MiB) is refused at the limit', async () => {
    const { api } = await createTestServer()
    const start = await api.post('/ingest/v1/web/start').send({ projectKey: 'mock-project' }).expect(200)
    const bomb = gzipSync(gzipSync(Buffer.alloc(16 << 20)))
    expect(bomb.byteLength).toBeLessThan(1024)
    const res = await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${start.body.token}`)
      .set('Content-Encoding', 'gzip')
      .set('Content-Type', 'application/octet-stream')
      .send(bomb)
      .expect(413)
    expect(res.body.error).toBe('payload_too_large')
    const once = gzipSync(Buffer.alloc(16 << 20))
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${start.body.token}`)
      .set('Content-Encoding', 'gzip')
      .set('Content-Type', 'application/octet-stream')
      .send(once)
      .expect(413)
  })
  test.each(['/ingest/v1/web/i', '/ingest/v1/web/images'])(
    'a body in an encoding the server does not decode is a 415 at %s',
    async (path) => {
      const { api } = await createTestServer()
      const res = await api
        .post(path)
        .set('Content-Encoding', 'br')
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from([1, 2, 3]))
        .expect(415)
      expect(res.body.error).toBe('unsupported_media_type')
    },
  )
})

describe('slow clients are cut off and connections are capped', () => {
  const SMALL = { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 }

  test(
    'headers that never end get a 408 and the connection closes',
    async () => {
      // In process quickly, at SMALL; a target at its own limits, which must cut the client off all the same: the
      // documented 10 s (HEADERS_TIMEOUT_MS) are waited in real time.
      const { port } = await startServer(TARGET_URL ? {} : SMALL)
      const { socket, closed } = await open(port)
      socket.write('GET /api/_auth/session HTTP/1.1\r\nHost: 127.0.0.1\r\n')
      const answer = await closed
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      expect(bodyOf(answer)).toEqual({ error: 'request_timeout', message: expect.any(String) })
    },
    HEADERS_TIMEOUT_MS + 20_000,
  )

  test('an Expect the server does not understand gets a 417 with the usual error body', async () => {
    const { port } = await startServer()
    const { socket, closed } = await open(port)
    socket.write('GET /api/_auth/session HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\n\r\n')
    const answer = await closed
    expect(answer).toMatch(/^HTTP\/1\.1 417 /)
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/i)
    expect(bodyOf(answer)).toEqual({ error: 'expectation_failed', message: expect.any(String) })
  })

  test.each([
    ['a request line that is not HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400, 'bad_request'],
    ['a header with no colon', 'GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n', 400, 'bad_request'],
    ['an HTTP/1.1 request without Host', 'GET /api/_auth/session HTTP/1.1\r\n\r\n', 400, 'bad_request'],
    ['a control request without Host', 'GET /__mock/clock HTTP/1.1\r\n\r\n', 400, 'bad_request'],
    [
      'headers over 16 KiB',
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ])('%s gets the usual error body, and the connection closes', async (_label, raw, status, error) => {
    const { port } = await startServer()
    const { socket, closed } = await open(port)
    socket.write(raw)
    const answer = await closed
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
    expect(answer).toMatch(/\r\nContent-Type: application\/json/)
    expect(bodyOf(answer)).toEqual({ error, message: expect.any(String) })
  })

  test(
    'a body that never ends gets a 408 and the connection closes',
    async () => {
      // A target at its own limits: the documented 30 s for a request (REQUEST_TIMEOUT_MS) are waited in real time.
      const { port } = await startServer(TARGET_URL ? {} : SMALL)
      const { socket, closed } = await open(port)
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"',
      )
      const answer = await closed
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      expect(bodyOf(answer)).toEqual({ error: 'request_timeout', message: expect.any(String) })
    },
    REQUEST_TIMEOUT_MS + 20_000,
  )

  test('a body that never ends: the call it started ends too, in the log', async () => {
    let onLogin: (line: string) => void = () => {}
    const ended = new Promise<string>((resolve) => (onLogin = resolve))
    const log = (line: string) => line.startsWith('POST /api/auth/login ') && onLogin(line)
    const { port } = await startServer(SMALL, { log })
    const { socket, closed } = await open(port)
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"',
    )
    await closed
    // The read settles as unreadable: the call is logged (a 400 nobody receives) instead of waiting forever.
    expect(await ended).toMatch(/^POST \/api\/auth\/login 400 /)
  })

  test('a connection past the cap is closed as it arrives; those within it are served', async () => {
    const { port, server } = await startServer({ maxConnections: 2 })
    const accepted = new Promise<void>((resolve) => {
      let count = 0
      server.on('connection', () => ++count === 2 && resolve())
    })
    const first = await open(port)
    await open(port)
    await accepted
    const dropped = new Promise<void>((resolve) => server.once('drop', () => resolve()))
    const third = await open(port)
    await dropped
    expect(await third.closed).toBe('')
    first.socket.write('GET /api/_auth/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(await first.head).toMatch(/^HTTP\/1\.1 200 /)
  })
})

describe('bounded state', () => {
  const verify = (server: TestServer, email: string) =>
    server.api.post('/api/auth/otp/verify').send({ email, code: '000000', purpose: 'signup' })

  test('guesses at unknown addresses store nothing: the data file stays the same size, the answers alike', async () => {
    const dataFile = join(scratchDir('hardening-data'), 'state.json')
    const server = await createTestServer({ dataFile })
    const known = uniqueEmail('known')
    await server.api
      .post('/api/auth/signup')
      .send({ name: 'Known', email: known, password: 'a long enough passphrase' })
    await server.app.core.flush()
    const before = statSync(dataFile).size
    const answers = []
    for (let index = 0; index < 40; index += 1)
      answers.push((await verify(server, uniqueEmail('nobody')).expect(400)).body)
    await server.app.core.flush()
    expect(statSync(dataFile).size).toBeLessThan(before + 256)
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1)
    const unknown = uniqueEmail('unknown')
    for (let guess = 0; guess < 6; guess += 1) {
      const [a, b] = [await verify(server, known), await verify(server, unknown)]
      expect([b.status, b.body]).toEqual([a.status, a.body])
    }
  })

  test('decoys are capped, the oldest going first', async () => {
    const server = await createTestServer({ maxDecoys: 3 })
    for (let index = 0; index < 5; index += 1) await verify(server, uniqueEmail('nobody')).expect(400)
    expect(await server.app.core.ops.domain.decoys.size()).toBe(3)
    expect((await server.app.core.ops.domain.store.snapshot()).codes).toEqual([])
  })

  test('an account never verified is purged once PENDING_PASSWORD_MS old; a verified one and the seeded unverified one stay', async () => {
    const server = await createTestServer()
    // The store as GET /__mock/state shows it (the same in-process and against a running server).
    const store = async () => (await server.mock.state()).store
    const userOf = async (email: string) => (await store()).users.find((user) => user.email === email)
    const stepsOf = async (userId: string) => (await store()).steps.filter((step) => step.userId === userId)
    const alan = SEED_ACCOUNTS.find((account) => !account.verified)!
    const pending = uniqueEmail('never-verified')
    await server.api
      .post('/api/auth/signup')
      .send({ name: 'Never', email: pending, password: PASSWORD })
      .expect(202)
    const verified = await signUp(server.api, 'verified')
    const pendingUser = (await userOf(pending))!
    expect((await stepsOf(pendingUser.id)).length).toBeGreaterThan(0)
    // Just short of the retention: still there.
    await advanceClock(server.api, PENDING_PASSWORD_MS - 120_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await userOf(pending)).toBeDefined()
    await advanceClock(server.api, 240_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await userOf(pending)).toBeUndefined()
    expect(await stepsOf(pendingUser.id)).toEqual([])
    await server.api.post('/api/auth/login').send({ email: verified.email, password: PASSWORD }).expect(200)
    const seeded = await server.api
      .post('/api/auth/login')
      .send({ email: alan.email, password: alan.password })
      .expect(403)
    expect(seeded.body.error).toBe('unverified')
  })

  test('accounts never verified are capped, the oldest going first once its code is gone', async () => {
    const server = await createTestServer({ maxUnverifiedAccounts: 2 })
    const { store } = server.app.core.ops.domain
    const emails = [uniqueEmail('cap-1'), uniqueEmail('cap-2'), uniqueEmail('cap-3'), uniqueEmail('cap-4')]
    for (const email of emails) {
      await server.api.post('/api/auth/signup').send({ name: 'Cap', email, password: PASSWORD }).expect(202)
      await advanceClock(server.api, 1_000)
    }
    const present = async () => {
      const { users } = await store.snapshot()
      return emails.filter((email) => users.some((user) => user.email === email))
    }
    // While their codes live, the accounts stay (a code keeps its account).
    await advanceClock(server.api, 60_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await present()).toEqual(emails)
    // Past the codes' lifetime, the two oldest go; the seeded unverified account is not counted.
    await advanceClock(server.api, 11 * 60_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await present()).toEqual(emails.slice(2))
    expect(await store.users.byEmail('alan@example.com')).not.toBeNull()
  })

  test('expired codes, ended sessions and their refresh families are purged', async () => {
    const server = await createTestServer()
    const { store, config } = server.app.core.ops.domain
    const counts = async () => {
      const records = await store.snapshot()
      return {
        codes: records.codes.length,
        sessions: records.sessions.length,
        refreshTokens: records.refreshTokens.length,
        resetTokens: records.resetTokens.length,
        decoys: await server.app.core.ops.domain.decoys.size(),
      }
    }
    const seeded = await counts()
    const account = await signUp(server.api, 'purged')
    const second = await signIn(server.api, account.email, account.password)
    await server.api.post('/api/refresh_token').send({ refresh_token: second.refreshToken }).expect(200)
    await server.api.delete('/api/_auth/session').set('Cookie', second.cookie).expect(200)
    await server.api.post('/api/auth/forgot').send({ email: account.email }).expect(202)
    await verify(server, uniqueEmail('nobody')).expect(400)
    // Past the codes' lifetime and an access token's: the ended session goes, the live one stays.
    await advanceClock(server.api, config.codeTtlMs + config.accessTokenTtlMs + 120_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await counts()).toEqual({
      ...seeded,
      sessions: seeded.sessions + 1,
      refreshTokens: seeded.refreshTokens + 1,
    })
    await server.api.post('/api/refresh_token').send({ refresh_token: account.refreshToken }).expect(200)
    // Past the live family's absolute lifetime too: nothing of the account's sign-ins is left.
    await advanceClock(server.api, config.refreshTokenTtlMs + config.accessTokenTtlMs + 120_000)
    await server.api.get('/api/_auth/session').expect(200)
    expect(await counts()).toEqual(seeded)
  })
})
