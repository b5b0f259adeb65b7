// The built app served beside the API: deep links get index.html, assets are cached, config.json says mock.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import request from 'supertest'
import { beforeAll, expect, test } from 'vitest'
import { INLINE_CONFIG_ID } from '#api/runtime-config.ts'
import { createApp } from '../app.ts'
import { withInlineConfig } from './web.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'web-root-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log(1)')
  writeFileSync(join(root, 'config.json'), JSON.stringify({ apiBase: '', environment: 'demo', mock: false }))
  // As npm run build leaves them: a brotli and a gzip copy beside each text file.
  const files: [string, string][] = [
    ['assets/app-9z8y.js', `console.log(${'"compressed", '.repeat(200)})`],
    ['robots.txt', 'User-agent: *\nAllow: /\n'.repeat(20)],
    ['page.html', '<!doctype html><title>compressed page</title>'.repeat(20)],
  ]
  for (const [file, text] of files) {
    writeFileSync(join(root, file), text)
    writeFileSync(join(root, `${file}.br`), brotliCompressSync(text))
    writeFileSync(join(root, `${file}.gz`), gzipSync(text))
  }
  return () => rmSync(root, { recursive: true, force: true })
})

/** One request over a real connection, its bytes as sent (supertest and fetch would decompress them). */
async function rawRequest(
  method: 'GET' | 'HEAD',
  path: string,
  headers: Record<string, string>,
  options = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  const server = createApp({ webRoot: root, hasher, ...options }).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  try {
    return await new Promise((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }),
        )
      })
        .on('error', reject)
        .end()
    })
  } finally {
    server.close()
  }
}

const rawGet = (path: string, headers: Record<string, string>, options = {}) =>
  rawRequest('GET', path, headers, options)

/** A built app of its own: this index.html, and this config.json when given. */
function builtApp(indexHtml: string, configJson?: string): string {
  const dir = scratchDir('web-app')
  writeFileSync(join(dir, 'index.html'), indexHtml)
  if (configJson !== undefined) writeFileSync(join(dir, 'config.json'), configJson)
  return dir
}

const hasher = { memoryCost: 1024, timeCost: 1 }
/** config.json's `tokenLifetimes` at the defaults: 15 minutes and 24 hours (shared/constants.ts). */
const DEFAULT_LIFETIMES = { accessSeconds: 900, refreshSeconds: 86_400 }

test('deep links get index.html; the API keeps its JSON 404', async () => {
  const app = createApp({ webRoot: root, hasher })
  const page = await request(app).get('/process').expect(200)
  expect(page.text).toContain('<title>app</title>')
  expect(page.headers['cache-control']).toBe('no-cache')
  await request(app).get('/some/unknown/page').expect(200)
  const api = await request(app).get('/api/nope').expect(404)
  expect(api.body.error).toBe('not_found')
})

test('hashed assets are cached for good, and a missing one is a 404, not the page', async () => {
  const app = createApp({ webRoot: root, hasher })
  const asset = await request(app).get('/assets/app-1a2b.js').expect(200)
  expect(asset.headers['cache-control']).toContain('immutable')
  await request(app).get('/assets/app-gone.js').expect(404)
})

test('config.json says mock: true on the mock server and false in production mode, and whether external sign-in works', async () => {
  const mock = await request(createApp({ webRoot: root, hasher }))
    .get('/config.json')
    .set('Host', 'app.test:8080')
  expect(mock.body).toEqual({
    apiBase: '',
    environment: 'demo',
    mock: true,
    externalSignIn: true,
    tokenLifetimes: DEFAULT_LIFETIMES,
    sentryDsn: '{protocol}//mock@{host}/1',
    recorder: { projectKey: 'mock-project', host: '{origin}' },
  })
  const production = await request(createApp({ webRoot: root, hasher, production: true })).get('/config.json')
  expect(production.body).toEqual({
    apiBase: '',
    environment: 'demo',
    mock: false,
    externalSignIn: false,
    tokenLifetimes: DEFAULT_LIFETIMES,
  })
  const configured = await request(
    createApp({
      webRoot: root,
      hasher,
      production: true,
      externalSignIn: {
        start: () => Promise.reject(new Error('not started here')),
        finish: async () => null,
      },
    }),
  ).get('/config.json')
  expect(configured.body.externalSignIn).toBe(true)
})

test('a page carries the runtime configuration config.json would give, in place of its preload; the file itself keeps the preload', async () => {
  const pageRoot = builtApp(
    '<!doctype html><title>app</title><div id="root"></div><link rel="preload" href="/config.json" as="fetch" crossorigin="anonymous" /></body>',
    // A value that would close the block if it were written as it is.
    JSON.stringify({ apiBase: '', environment: '</script><b>x</b>' }),
  )
  const app = createApp({ webRoot: pageRoot, hasher })
  const page = await request(app).get('/new/otp').expect(200)
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(page.headers['cache-control']).toBe('no-cache')
  expect(page.text).not.toContain('rel="preload"')
  const block = new RegExp(`<script type="application/json" id="${INLINE_CONFIG_ID}">(.*?)</script>`).exec(
    page.text,
  )
  expect(block, 'one data block, not closed early').not.toBeNull()
  expect(block![1]).not.toContain('<')
  const config = await request(app).get('/config.json')
  expect(JSON.parse(block![1]!)).toEqual(config.body)
  // /index.html asked for by name is the same page.
  const named = await request(app).get('/index.html').expect(200)
  expect(named.text).toBe(page.text)
})

test('a config.json that is not a JSON object (null, an array, a string) is no field at all: the pages stay up', async () => {
  for (const content of ['null', '["a"]', '"a string"', '42']) {
    const pageRoot = builtApp('<!doctype html><title>app</title></body>', content)
    const app = createApp({ webRoot: pageRoot, hasher, production: true })
    const config = await request(app).get('/config.json').expect(200)
    expect(config.body, content).toEqual({
      mock: false,
      externalSignIn: false,
      tokenLifetimes: DEFAULT_LIFETIMES,
    })
    const page = await request(app).get('/login').expect(200)
    expect(page.text).toContain(
      '{"mock":false,"externalSignIn":false,"tokenLifetimes":{"accessSeconds":900,"refreshSeconds":86400}}',
    )
  }
})

test('a HEAD of a page gets the GET’s headers, its encoding and length included, and no body', async () => {
  const pageRoot = builtApp(`<!doctype html><title>app</title>${'<p>text</p>'.repeat(300)}</body>`)
  const options = { webRoot: pageRoot, hasher }
  const got = await rawGet('/login', { 'accept-encoding': 'br' }, options)
  const head = await rawRequest('HEAD', '/login', { 'accept-encoding': 'br' }, options)
  expect(got.headers['content-encoding']).toBe('br')
  for (const name of ['content-encoding', 'content-length', 'content-type', 'vary', 'cache-control'])
    expect(head.headers[name], name).toBe(got.headers[name])
  expect(head.bytes.byteLength).toBe(0)
})

test('withInlineConfig: a page without the preload gets the block at the end of its body', () => {
  expect(withInlineConfig('<body><p>x</p></body>', '{"mock":true}')).toBe(
    `<body><p>x</p><script type="application/json" id="${INLINE_CONFIG_ID}">{"mock":true}</script></body>`,
  )
})

test('a file with compressed copies goes out in the best encoding the browser takes, and always says Vary', async () => {
  const text = `console.log(${'"compressed", '.repeat(200)})`
  const br = await rawGet('/assets/app-9z8y.js', { 'accept-encoding': 'gzip, deflate, br' })
  expect(br.status).toBe(200)
  expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' })
  expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
  expect(br.headers['cache-control']).toContain('immutable')
  expect(Number(br.headers['content-length'])).toBe(br.bytes.length)
  expect(br.bytes.length).toBeLessThan(text.length)
  expect(brotliDecompressSync(br.bytes).toString()).toBe(text)
  const gzip = await rawGet('/assets/app-9z8y.js', { 'accept-encoding': 'gzip' })
  expect(gzip.headers['content-encoding']).toBe('gzip')
  expect(gunzipSync(gzip.bytes).toString()).toBe(text)
  const plain = await rawGet('/assets/app-9z8y.js', { 'accept-encoding': 'identity' })
  expect(plain.headers['content-encoding']).toBeUndefined()
  expect(plain.headers.vary).toBe('Accept-Encoding')
  expect(plain.bytes.toString()).toBe(text)
})

test('robots.txt and other files at the root are themselves, compressed too; a missing file is a 404, not the page', async () => {
  const robots = await rawGet('/robots.txt', { 'accept-encoding': 'br' })
  expect(robots.headers['content-type']).toMatch(/^text\/plain/)
  expect(brotliDecompressSync(robots.bytes).toString()).toMatch(/^User-agent: \*/)
  const html = await rawGet('/page.html', { 'accept-encoding': 'gzip' })
  expect(html.headers['content-type']).toMatch(/^text\/html/)
  expect(gunzipSync(html.bytes).toString()).toContain('compressed page')
  const missing = await request(createApp({ webRoot: root, hasher }))
    .get('/favicon-gone.ico')
    .expect(404)
  expect(missing.body.error).toBe('not_found')
  // A page path has no extension: it still gets the app.
  await request(createApp({ webRoot: root, hasher }))
    .get('/help')
    .expect(200)
})
