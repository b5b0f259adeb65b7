// config.json's `tokenLifetimes` (hosts/web-page.ts): the lifetimes the server issues tokens with, in every mode,
// the same in the page's inline configuration, and as the tokens themselves state them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { beforeAll, expect, test } from 'vitest'
import { INLINE_CONFIG_ID } from '#api/runtime-config.ts'
import { createApp } from '../app.ts'
import { tokenLifetimes } from './web-page.ts'

const hasher = { memoryCost: 1024, timeCost: 1 }
const SHORT = { accessTokenTtlMs: 30_000, refreshTokenTtlMs: 2 * 60 * 60_000 }

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'web-page-'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title></body>')
  // A file that names lifetimes of its own: the server's win, as they do for `mock`.
  writeFileSync(
    join(root, 'config.json'),
    JSON.stringify({ environment: 'qa', tokenLifetimes: { accessSeconds: 1, refreshSeconds: 1 } }),
  )
  return () => rmSync(root, { recursive: true, force: true })
})

test.each([
  ['development', false],
  ['production', true],
])(
  'in %s mode config.json and the page name the lifetimes the server was started with',
  async (_mode, production) => {
    const app = createApp({ webRoot: root, hasher, production, ...SHORT })
    const config = await request(app).get('/config.json').expect(200)
    expect(config.body.tokenLifetimes).toEqual({ accessSeconds: 30, refreshSeconds: 7_200 })
    expect(config.body.environment).toBe('qa')
    const page = await request(app).get('/login').expect(200)
    const block = new RegExp(`<script type="application/json" id="${INLINE_CONFIG_ID}">(.*?)</script>`).exec(
      page.text,
    )
    expect(JSON.parse(block![1]!).tokenLifetimes).toEqual({ accessSeconds: 30, refreshSeconds: 7_200 })
  },
)

test('the figures are the ones the tokens state: the access token’s exp - iat, the session cookie’s Max-Age', async () => {
  const app = createApp({ webRoot: root, hasher, accessTokenTtlMs: 1_500, refreshTokenTtlMs: 90_500 })
  const { tokenLifetimes: lifetimes } = (await request(app).get('/config.json').expect(200)).body
  const login = await request(app)
    .post('/api/auth/login')
    .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
    .expect(200)
  const claims = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString()) as {
    iat: number
    exp: number
  }
  const cookie = (login.headers['set-cookie'] as unknown as string[]).find((one) => one.startsWith('sid='))
  expect(lifetimes).toEqual({
    accessSeconds: claims.exp - claims.iat,
    refreshSeconds: Number(/Max-Age=(\d+)/.exec(cookie!)![1]),
  })
  expect(lifetimes).toEqual({ accessSeconds: 2, refreshSeconds: 90 })
})

test('whole seconds: the access lifetime rounded as the token’s exp is, the refresh lifetime rounded down', () => {
  expect(tokenLifetimes({ accessTokenTtlMs: 30_000, refreshTokenTtlMs: 86_400_000 })).toEqual({
    accessSeconds: 30,
    refreshSeconds: 86_400,
  })
  expect(tokenLifetimes({ accessTokenTtlMs: 1_499, refreshTokenTtlMs: 1_999 })).toEqual({
    accessSeconds: 1,
    refreshSeconds: 1,
  })
})
