// Compressed JSON: an answer of COMPRESS_MIN_BYTES or more goes out in brotli or gzip as the client asks, with `Vary:
// Accept-Encoding`; a small one, and any answer to a client that asks for no encoding, goes as it is. The API's
// answers and config.json alike, seen on the wire (supertest and fetch would decompress).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { get, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApp } from '../app.ts'
import { COMPRESS_MIN_BYTES, encodeBody } from './compress.ts'

const hasher = { memoryCost: 1024, timeCost: 1 }
let origin: string
let close: () => void
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'compress-root-'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  // A config.json past the size floor: the server adds its own fields to whatever the file holds.
  writeFileSync(join(root, 'config.json'), JSON.stringify({ environment: 'x'.repeat(COMPRESS_MIN_BYTES) }))
  const app = createApp({ webRoot: root, hasher })
  await app.core.ready
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => {
    server.close()
    rmSync(root, { recursive: true, force: true })
  }
})
afterAll(() => close())

function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    get(`${origin}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes: Buffer.concat(chunks),
        }),
      )
    }).on('error', reject)
  })
}

function decoded(answer: { headers: IncomingHttpHeaders; bytes: Buffer }): unknown {
  const encoding = answer.headers['content-encoding']
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(answer.bytes)
      : encoding === 'gzip'
        ? gunzipSync(answer.bytes)
        : answer.bytes
  return JSON.parse(bytes.toString('utf8'))
}

// GET /__mock/scenarios lists every scenario: well past the floor.
test.each(['/__mock/scenarios', '/config.json'])(
  '%s, a large answer, goes out in brotli or gzip as asked, the same JSON, with Vary: Accept-Encoding',
  async (path) => {
    const plain = await rawGet(path, {})
    expect(plain.status).toBe(200)
    expect(plain.bytes.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES)
    const json = decoded(plain)
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const answer = await rawGet(path, { 'accept-encoding': accept })
      expect([answer.status, answer.headers['content-encoding']]).toEqual([200, encoding])
      expect(answer.headers.vary).toMatch(/Accept-Encoding/)
      expect(answer.bytes.length).toBeLessThan(plain.bytes.length)
      expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length)
      expect(decoded(answer)).toEqual(json)
    }
  },
)

test('a client that sends no Accept-Encoding (or takes none we have) gets a large answer as it is, still with Vary', async () => {
  const asks: Record<string, string>[] = [
    {},
    { 'accept-encoding': 'identity' },
    { 'accept-encoding': 'deflate' },
  ]
  for (const headers of asks) {
    const answer = await rawGet('/__mock/scenarios', headers)
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.headers.vary).toMatch(/Accept-Encoding/)
    expect(JSON.parse(answer.bytes.toString('utf8'))).toHaveProperty('available')
  }
})

test('a small answer goes raw, whatever the client takes', async () => {
  const answer = await rawGet('/api/_auth/session', { 'accept-encoding': 'gzip, deflate, br' })
  expect([answer.status, answer.headers['content-encoding'], answer.bytes.toString('utf8')]).toEqual([
    200,
    undefined,
    '{}',
  ])
  expect(answer.headers.vary ?? '').not.toMatch(/Accept-Encoding/)
})

// BREACH: a secret compressed beside text a cross-site page can steer leaks through the answer's length.
test.each([
  ['a token', '"access_token":"eyJhbGciOi.x.y"'],
  ['a refresh token', '"refresh_token": "r-123"'],
  ['a one-time code', '"code":"123456"'],
  ['a reset token', '"reset_token":"t"'],
])('a large answer that carries %s goes raw, whatever the client takes', (_, field) => {
  const body = `{${field},"padding":"${'x'.repeat(COMPRESS_MIN_BYTES)}"}`
  expect(encodeBody('gzip, deflate, br', 'GET', body, undefined)).toEqual({ body, headers: {} })
})

test('a large answer that sets a cookie goes raw; the same answer without one is compressed', () => {
  const body = JSON.stringify({ padding: 'x'.repeat(COMPRESS_MIN_BYTES) })
  expect(encodeBody('br', 'GET', body, undefined, true)).toEqual({ body, headers: {} })
  expect(encodeBody('br', 'GET', body, undefined, false).headers['content-encoding']).toBe('br')
})

// Bytes (a replayed answer recorded in base64, docs/decisions/017-har-record-and-replay.md) follow the same rules.
/** 4 KiB of every byte value in turn: no UTF-8, and compressible. */
const PATTERN = Uint8Array.from({ length: 4096 }, (_, index) => index % 256)

test.each(['br', 'gzip'] as const)(
  'large bytes go out in %s when it makes them smaller, and decompress to the same bytes',
  (encoding) => {
    const encoded = encodeBody(encoding, 'GET', PATTERN, undefined)
    expect(encoded.headers).toEqual({ 'content-encoding': encoding, vary: 'Accept-Encoding' })
    const compressed = Buffer.from(encoded.body as Uint8Array)
    expect(compressed.length).toBeLessThan(PATTERN.length)
    const back = encoding === 'br' ? brotliDecompressSync(compressed) : gunzipSync(compressed)
    expect(back.equals(PATTERN)).toBe(true)
  },
)

test('bytes that compress to no fewer bytes (an image is compressed already) go as they are, still with Vary', () => {
  // Random bytes, like a PNG's compressed data.
  const bytes = randomBytes(4096)
  expect(bytes.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES)
  expect(encodeBody('br, gzip', 'GET', bytes, undefined)).toEqual({
    body: bytes,
    headers: { vary: 'Accept-Encoding' },
  })
})

test('bytes under the floor, or that spell a credential, go raw', () => {
  const small = PATTERN.subarray(0, COMPRESS_MIN_BYTES - 1)
  expect(encodeBody('br', 'GET', small, undefined)).toEqual({ body: small, headers: {} })
  const token = Buffer.from(`{"access_token":"eyJ.x.y","padding":"${'x'.repeat(COMPRESS_MIN_BYTES)}"}`)
  expect(encodeBody('br', 'GET', token, undefined)).toEqual({ body: token, headers: {} })
})
