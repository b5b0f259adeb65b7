// --replay end to end in one process (docs/decisions/017-har-record-and-replay.md): a session recorded by the mock
// server's journal, exported as HAR, replayed by a server that has no account at all; what a call with no recorded
// answer gets; what /__mock, the web app and /builds answer in replay mode.
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import request from 'supertest'
import { beforeAll, expect, test } from 'vitest'
import { harProblems } from '../../testing/har-validator.ts'
import { createApp, createReplayApp } from '../app.ts'
import { harEntry, harOf } from '../../testing/har-entry.ts'
import { parseHar, type LoadedHar } from './har-file.ts'

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
let webRoot: string
beforeAll(() => {
  webRoot = mkdtempSync(join(tmpdir(), 'replay-web-'))
  mkdirSync(join(webRoot, 'builds'))
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(webRoot, 'builds/latest.json'), JSON.stringify({ id: 'b1', timestamp: 1 }))
  return () => rmSync(webRoot, { recursive: true, force: true })
})

let exported: unknown
let recorded: { login: Record<string, unknown>; me: unknown; signedIn: unknown }

// One session against the real mock backend: signed out, sign-in, home, signed in; then its journal as HAR.
beforeAll(async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  await request(app).get('/api/_auth/session').expect(200, {})
  const login = await request(app).post('/api/auth/login').send(ADA).expect(200)
  const cookie = login.headers['set-cookie']![0]!.split(';')[0]!
  const me = await request(app).get('/api/me').set('authorization', `Bearer ${login.body.token}`).expect(200)
  const signedIn = await request(app).get('/api/_auth/session').set('cookie', cookie).expect(200)
  recorded = { login: login.body, me: me.body, signedIn: signedIn.body }
  exported = (await request(app).get('/__mock/requests?format=har').expect(200)).body
})

function replayOf(har: LoadedHar, options: { controlToken?: string; log?: (line: string) => void } = {}) {
  return createReplayApp({ har, webRoot, ...options })
}

test('a HAR exported from the journal replays its calls with the recorded answers, in recorded order', async () => {
  expect(harProblems(exported)).toEqual([])
  const replay = replayOf(parseHar(exported, 'export.har'))
  await request(replay).get('/api/_auth/session').expect(200, {})
  // The password was redacted in the file: any password matches; the e-mail must be the recorded one.
  const login = await request(replay)
    .post('/api/auth/login')
    .send({ email: ADA.email, password: 'whatever is typed' })
    .expect(200)
  expect(login.body).toEqual({
    ...recorded.login,
    token: '[redacted]',
    refresh_token: '[redacted]',
    service_token: '[redacted]',
  })
  // The session cookie was redacted: it is not set again.
  expect(login.headers['set-cookie']).toBeUndefined()
  expect((await request(replay).get('/api/me').expect(200)).body).toEqual(recorded.me)
  expect((await request(replay).get('/api/_auth/session').expect(200)).body).toEqual(recorded.signedIn)
  // Past the recording, the last matching answer again.
  expect((await request(replay).get('/api/_auth/session').expect(200)).body).toEqual(recorded.signedIn)
  await request(replay)
    .post('/api/auth/login')
    .send({ email: 'grace@example.com', password: 'x' })
    .expect(501)
})

test('a call with no recorded answer gets 501 replay_no_match naming it; the journal and the log say which answered', async () => {
  const lines: string[] = []
  const replay = replayOf(parseHar(exported, 'export.har'), { log: (line) => lines.push(line) })
  await request(replay).get('/api/_auth/session').expect(200)
  const missing = await request(replay).get('/api/help?q=reset&code=493817').expect(501)
  expect(missing.headers['content-type']).toMatch(/^application\/json/)
  expect(missing.body).toEqual({
    error: 'replay_no_match',
    message:
      'No recorded answer for GET /api/help?q=reset&code=[redacted]: nothing was recorded for GET /api/help.',
  })
  const journal = (await request(replay).get('/__mock/requests').expect(200)).body.requests
  expect(
    journal.map((entry: { path: string; status: number; replay: unknown }) => [
      entry.path,
      entry.status,
      entry.replay,
    ]),
  ).toEqual([
    ['/api/_auth/session', 200, { matched: true, entry: 0 }],
    ['/api/help', 501, { matched: false }],
  ])
  const har = (await request(replay).get('/__mock/requests?format=har').expect(200)).body
  expect(harProblems(har)).toEqual([])
  expect(JSON.stringify(har)).not.toContain('493817')
  expect(lines.join('\n')).not.toContain('493817')
  expect(lines.slice(0, 2)).toEqual([
    expect.stringMatching(/^GET \/api\/_auth\/session 200 \(replayed entry 0\) \d+ms$/),
    expect.stringMatching(/^GET \/api\/help 501 \(no recorded answer\) \d+ms$/),
  ])
})

test('/__mock in replay mode: the journal and reset, behind the control guard; anything else is a 404', async () => {
  const token = { 'x-mock-control-token': 'k3y' }
  const replay = replayOf(parseHar(exported, 'export.har'), { controlToken: 'k3y' })
  await request(replay).get('/__mock/requests').expect(401)
  await request(replay).get('/__mock/clock').expect(401)
  const clock = await request(replay).get('/__mock/clock').set(token).expect(404)
  expect(clock.body).toEqual({
    error: 'not_found',
    message:
      'Replay mode (--replay) answers only GET /__mock/requests and POST /__mock/reset, not GET /__mock/clock.',
  })
  await request(replay).get('/api/_auth/session').expect(200, {})
  expect((await request(replay).get('/api/_auth/session').expect(200)).body).toEqual(recorded.signedIn)
  await request(replay).post('/__mock/reset').set(token).send({}).expect(200, { reset: true })
  // The recorded answers start over, and the journal is empty again.
  expect((await request(replay).get('/__mock/requests').set(token).expect(200)).body).toEqual({
    requests: [],
  })
  await request(replay).get('/api/_auth/session').expect(200, {})
})

test('the web app is served beside the replay: its pages, config.json without the mock controls, /builds from its files', async () => {
  const replay = replayOf(parseHar(exported, 'export.har'))
  expect((await request(replay).get('/login').expect(200)).text).toContain('<title>app</title>')
  const config = (await request(replay).get('/config.json').expect(200)).body
  expect(config).toMatchObject({ mock: false })
  expect(config).not.toHaveProperty('sentryDsn')
  // A replay issues no tokens of its own: the recording's say how long they live.
  expect(config).not.toHaveProperty('tokenLifetimes')
  await request(replay).get('/builds/latest.json').expect(200, { id: 'b1', timestamp: 1 })
})

/** A HAR 1.2 of one recorded call, as a browser writes it. */
function browserHar(
  url: string,
  response: { status: number; headers: { name: string; value: string }[]; text?: string },
) {
  const content = {
    size: -1,
    mimeType: 'application/json',
    ...(response.text !== undefined && { text: response.text }),
  }
  return harOf([
    harEntry(url, {
      response: { status: response.status, statusText: '', headers: response.headers, content },
    }),
  ])
}

test('recorded headers: the content type, status and cookies are sent again (Domain dropped), lengths and encodings are not', async () => {
  const har = browserHar('https://backend.example/api/_auth/session', {
    status: 200,
    headers: [
      { name: 'Content-Type', value: 'application/json; charset=utf-8' },
      { name: 'Content-Encoding', value: 'br' },
      { name: 'Content-Length', value: '999' },
      { name: 'Set-Cookie', value: 'sid=recorded-value; Domain=backend.example; Path=/; HttpOnly' },
      { name: 'Set-Cookie', value: 'other=[redacted]; Path=/' },
    ],
    text: '{"user":{"id":"u1","email":"a@b.c","name":"A"},"loggedInAt":"2026-11-26T10:00:00.000Z"}',
  })
  const answer = await request(replayOf(parseHar(har, 'browser.har')))
    .get('/api/_auth/session')
    .expect(200)
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(answer.headers['content-encoding']).toBeUndefined()
  expect(answer.headers['set-cookie']).toEqual(['sid=recorded-value; Path=/; HttpOnly'])
  expect(answer.headers['cache-control']).toBe('no-store')
  expect(answer.body.user.email).toBe('a@b.c')
})

test('a recorded request that got no answer (status -1) is replayed as a dropped connection', async () => {
  const har = browserHar('http://127.0.0.1/api/me', { status: -1, headers: [] })
  const replay = replayOf(parseHar(har, 'browser.har'))
  await expect(request(replay).get('/api/me')).rejects.toThrow(/socket hang up|ECONNRESET/)
})

test('a recorded header value Node refuses never reaches the socket, and a refused answer is a 500, not a crash', async () => {
  const call = (index: number, headers: [string, string][]): LoadedHar['calls'][number] => ({
    index,
    method: 'GET',
    path: `/api/h${index}`,
    query: [],
    response: { status: 302, headers, body: { mimeType: 'application/json', text: '{}' } },
  })
  // Built by hand, as no file read by har-file.ts can hold these any more.
  const har: LoadedHar = {
    calls: [
      call(0, [['location', '/a\r\nX-Injected: 1']]),
      call(1, [['retry-after', '1\nX: 2']]),
      call(2, [['location', '/a\u2028b']]),
      call(3, [['content-type', 'text/html\u0000']]),
    ],
    ignored: 0,
  }
  const replay = replayOf(har)
  for (const index of [0, 1, 2, 3]) {
    const answer = await request(replay).get(`/api/h${index}`).expect(302)
    expect(answer.headers['x-injected']).toBeUndefined()
    expect(answer.headers.location).toBeUndefined()
  }
  // Whatever an answer holds, the host answers 500 and keeps serving.
  const errors: string[] = []
  const guarded = createReplayApp({ har, webRoot, logError: (line) => errors.push(line) })
  guarded.replay.dispatch = async () => ({
    status: 200,
    headers: { location: '/a\r\nX-Injected: 1' },
    body: '{}',
  })
  const refused = await request(guarded).get('/api/h0').expect(500)
  expect(refused.body.error).toBe('internal_error')
  expect(refused.headers['x-injected']).toBeUndefined()
  expect(errors).toHaveLength(1)
})

test('a request whose body the server refused is marked _bodyOmitted in the HAR, and a replay never serves it to a request with a body', async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  await request(app)
    .post('/api/auth/login')
    .set('content-type', 'application/json')
    .send('{"email": "ada@')
    .expect(400)
  await request(app).post('/api/auth/login').set('content-type', 'text/plain').send('hello').expect(415)
  const login = await request(app).post('/api/auth/login').send(ADA).expect(200)
  const har = (await request(app).get('/__mock/requests?format=har').expect(200)).body
  expect(harProblems(har)).toEqual([])
  const requests = har.log.entries.map(
    (entry: { request: Record<string, unknown>; response: { status: number } }) => [
      entry.response.status,
      entry.request._bodyOmitted,
      entry.request.postData === undefined,
    ],
  )
  expect(requests).toEqual([
    [400, 'refused', true],
    [415, 'refused', true],
    [200, undefined, false],
  ])
  const replay = replayOf(parseHar(har, 'export.har'))
  for (const _ of [1, 2]) {
    const answer = await request(replay)
      .post('/api/auth/login')
      .send({ email: ADA.email, password: 'typed' })
      .expect(200)
    expect(answer.body.user).toEqual(login.body.user)
  }
})

/** One GET on the wire (supertest would decompress): status, headers and the bytes as sent. */
async function rawGet(
  app: ReturnType<typeof createReplayApp>,
  path: string,
  headers: Record<string, string>,
) {
  const server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    const { port } = server.address() as AddressInfo
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`http://127.0.0.1:${port}${path}`, { headers }, resolve).on('error', reject),
    )
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    return { status: response.statusCode, headers: response.headers, bytes: Buffer.concat(chunks) }
  } finally {
    server.close()
  }
}

test('an answer recorded in base64 (an icon, a PNG) is served byte for byte with its recorded type; text as it was', async () => {
  const icon = readFileSync(new URL('../../../web/public/favicon.ico', import.meta.url))
  // A PNG's signature, then 4 KiB with every byte value (none of it UTF-8): past the compression floor.
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from(Uint8Array.from({ length: 4096 }, (_, index) => (index * 7) % 256)),
  ])
  const json = '{"user":{"name":"Adà"}}'
  const har = browserHar('https://backend.example/api/brand/favicon.ico', { status: 200, headers: [] })
  const [template] = har.log.entries
  const answer = (path: string, contentType: string, content: Record<string, unknown>) => {
    const copy = structuredClone(template!)
    copy.request.url = `https://backend.example${path}`
    copy.response.headers = [{ name: 'Content-Type', value: contentType }]
    copy.response.content = content as typeof copy.response.content
    return copy
  }
  har.log.entries = [
    answer('/api/brand/favicon.ico', 'image/vnd.microsoft.icon', {
      size: icon.length,
      mimeType: 'image/vnd.microsoft.icon',
      text: icon.toString('base64'),
      encoding: 'base64',
    }),
    answer('/api/brand/logo.png', 'image/png', {
      size: png.length,
      mimeType: 'image/png',
      text: png.toString('base64'),
      encoding: 'base64',
    }),
    answer('/api/me', 'application/json; charset=utf-8', {
      size: 24,
      mimeType: 'application/json',
      text: json,
    }),
  ]
  const replay = replayOf(parseHar(har, 'browser.har'))
  for (const [path, bytes, type] of [
    ['/api/brand/favicon.ico', icon, 'image/vnd.microsoft.icon'],
    ['/api/brand/logo.png', png, 'image/png'],
    ['/api/me', Buffer.from(json), 'application/json; charset=utf-8'],
  ] as const) {
    const plain = await rawGet(replay, path, {})
    expect([plain.status, plain.headers['content-type'], plain.headers['content-encoding']]).toEqual([
      200,
      type,
      undefined,
    ])
    expect(plain.bytes.equals(bytes), path).toBe(true)
    expect(plain.headers['content-length']).toBe(String(bytes.length))
  }
  // Compressed like any large answer when the client takes it; the same bytes once decompressed.
  const compressed = await rawGet(replay, '/api/brand/logo.png', { 'accept-encoding': 'br' })
  expect(compressed.headers['content-encoding']).toBe('br')
  expect(compressed.headers['content-length']).toBe(String(compressed.bytes.length))
  expect(brotliDecompressSync(compressed.bytes).equals(png)).toBe(true)

  // The replay's own journal writes the bytes back in base64, as the file had them; the text as text.
  const exported = (await request(replay).get('/__mock/requests?format=har').expect(200)).body
  expect(harProblems(exported)).toEqual([])
  const contents = exported.log.entries.map(
    (entry: { response: { content: unknown } }) => entry.response.content,
  )
  expect(contents.slice(0, 3)).toEqual([
    {
      size: icon.length,
      mimeType: 'image/vnd.microsoft.icon',
      text: icon.toString('base64'),
      encoding: 'base64',
    },
    { size: png.length, mimeType: 'image/png', text: png.toString('base64'), encoding: 'base64' },
    { size: Buffer.byteLength(json), mimeType: 'application/json; charset=utf-8', text: json },
  ])
  // And that export replays to the same bytes again.
  const again = await rawGet(replayOf(parseHar(exported, 'export.har')), '/api/brand/logo.png', {})
  expect(again.bytes.equals(png)).toBe(true)
})

test('a replay answers the probes: /healthz and /readyz, 503 once it stops', async () => {
  const replay = replayOf(parseHar(exported, 'export.har'))
  expect((await request(replay).get('/healthz').expect(200)).body).toEqual({ status: 'ok' })
  expect((await request(replay).get('/readyz').expect(200)).body).toEqual({ status: 'ok', checks: {} })
  replay.beginShutdown()
  const stopping = await request(replay).get('/readyz').expect(503)
  expect(stopping.body).toEqual({ status: 'unavailable', checks: { server: 'stopping' } })
  expect(stopping.headers['retry-after']).toBe('5')
})
