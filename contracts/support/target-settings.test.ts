import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { createApp } from '#mock-server/app.ts'
import {
  compareSettings,
  DOCUMENTED_DEFAULTS,
  readCorsOrigins,
  readExternalSignIn,
  readPublicOriginDeclared,
  readTargetSettings,
  readTrustProxy,
  type TargetSettings,
} from '#contracts/support/target-settings.ts'

const FROM_MOCK: TargetSettings = {
  source: 'GET /__mock/settings',
  values: { refreshGraceMs: 10_000, loginRateLimit: { max: 100, windowMs: 900_000 } },
}

test("an option equal to the target's runs; a different or unknown one is a reason naming the option, both values and the source", () => {
  expect(
    compareSettings({ refreshGraceMs: 10_000, loginRateLimit: { max: 100, windowMs: 900_000 } }, FROM_MOCK),
  ).toEqual({
    matched: ['refreshGraceMs 10000', 'loginRateLimit 100 per 900000 ms'],
    differs: null,
  })
  expect(
    compareSettings(
      { refreshGraceMs: 60_000, loginRateLimit: { max: 3, windowMs: 900_000 }, maxDecoys: 3 },
      FROM_MOCK,
    ),
  ).toEqual({
    matched: [],
    differs:
      "needs a server built with refreshGraceMs 60000 where the target's is 10000, loginRateLimit 3 per 900000 ms where the target's is 100 per 900000 ms, maxDecoys 3 where the target's is unknown (GET /__mock/settings)",
  })
  // An option left undefined is the server's default, which asks for nothing.
  expect(compareSettings({ refreshGraceMs: undefined }, FROM_MOCK)).toEqual({ matched: [], differs: null })
})

/** A mock server (through its Node app) listening on 127.0.0.1, port 0. */
async function listen(app: ReturnType<typeof createApp>) {
  const server = createServer(app).listen(0, '127.0.0.1')
  await once(server, 'listening')
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { baseUrl, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('a mock server is read through GET /__mock/settings, with its control token', async () => {
  const app = createApp({
    controlToken: 'settings-token',
    refreshGraceMs: 2_500,
    hasher: { memoryCost: 1024, timeCost: 1 },
  })
  await app.core.ready
  const server = await listen(app)
  try {
    const target = { baseUrl: server.baseUrl, noControl: null, production: false }
    const settings = await readTargetSettings(
      { ...target, headers: { 'X-Mock-Control-Token': 'settings-token' } },
      fetch,
    )
    expect(settings.source).toBe('GET /__mock/settings')
    expect(settings.values).toMatchObject({
      refreshGraceMs: 2_500,
      mailRateLimit: { max: 100, windowMs: 900_000 },
    })
    // A server that refuses the call tells nothing: every option it reports is then unknown, never assumed. The
    // proxy hops, which no answer reports, are the server's default unless the run declares them.
    // Its authorize call shows external sign-in, with or without the token; the origin is the target's own URL.
    expect(await readTargetSettings({ ...target, headers: {} }, fetch, {})).toEqual({
      source: 'none known, as GET /__mock/settings answered 401',
      values: { trustProxyHops: 0, publicOrigin: server.baseUrl },
      assumed: ['trustProxyHops', 'publicOrigin'],
    })
  } finally {
    await server.close()
  }
})

test('a target without /__mock is taken at the documented defaults, but for the access token lifetime; one whose /__mock cannot be used at none', async () => {
  const unused = () => Promise.reject(new Error('no request expected'))
  const target = { baseUrl: 'http://127.0.0.1:9', headers: {} }
  expect(
    await readTargetSettings({ ...target, noControl: 'no control', production: true }, unused, {}),
  ).toEqual({
    ...DOCUMENTED_DEFAULTS,
    values: { ...DOCUMENTED_DEFAULTS.values, trustProxyHops: 0 },
    assumed: ['trustProxyHops'],
  })
  expect(DOCUMENTED_DEFAULTS.values).toMatchObject({ refreshGraceMs: 10_000 })
  expect(DOCUMENTED_DEFAULTS.values.accessTokenTtlMs).toBeUndefined()
  expect(
    await readTargetSettings({ ...target, noControl: 'asks for a token', production: false }, unused, {}),
  ).toEqual({
    source: 'none known, as its /__mock cannot be used',
    values: { trustProxyHops: 0 },
    assumed: ['trustProxyHops'],
  })
})

test('the CORS origins no answer reports are what CONTRACT_TARGET_CORS_ORIGINS declares: origins, none, or unknown', async () => {
  expect(readCorsOrigins(undefined)).toBeUndefined()
  expect(readCorsOrigins('')).toBeUndefined()
  expect(readCorsOrigins('none')).toEqual([])
  expect(readCorsOrigins('https://app.example, http://127.0.0.1:5173')).toEqual([
    'https://app.example',
    'http://127.0.0.1:5173',
  ])
  for (const wrong of [
    'app.example',
    'https://app.example/',
    'https://app.example/path',
    'none,https://a.example',
  ])
    expect(() => readCorsOrigins(wrong), wrong).toThrow(
      /CONTRACT_TARGET_CORS_ORIGINS is a comma-separated list/,
    )

  const unused = () => Promise.reject(new Error('no request expected'))
  const target = { baseUrl: 'http://127.0.0.1:9', headers: {}, noControl: 'no control', production: true }
  const declared = await readTargetSettings(target, unused, { corsOrigins: ['https://app.example'] })
  expect(declared.values).toMatchObject({ corsOrigins: ['https://app.example'], refreshGraceMs: 10_000 })
  expect(compareSettings({ corsOrigins: ['https://app.example'] }, declared)).toEqual({
    matched: ['corsOrigins https://app.example'],
    differs: null,
  })
  expect(compareSettings({ corsOrigins: [] }, declared).differs).toBe(
    "needs a server built with corsOrigins none where the target's is https://app.example (the documented defaults, as the target has no /__mock; its CORS origins as CONTRACT_TARGET_CORS_ORIGINS declares)",
  )
  // Undeclared, they are unknown, never assumed to be none: the reason says how to declare them.
  expect(compareSettings({ corsOrigins: [] }, await readTargetSettings(target, unused, {})).differs).toBe(
    "needs a server built with corsOrigins none where the target's is unknown (the documented defaults, as the target has no /__mock; CONTRACT_TARGET_CORS_ORIGINS declares them)",
  )
})

test('the proxy hops no answer reports are what CONTRACT_TARGET_TRUST_PROXY declares; undeclared, none', async () => {
  expect(readTrustProxy(undefined)).toBeUndefined()
  expect(readTrustProxy(' ')).toBeUndefined()
  expect(readTrustProxy('0')).toBe(0)
  expect(readTrustProxy('1')).toBe(1)
  for (const wrong of ['true', '-1', '1.5', 'one', '100'])
    expect(() => readTrustProxy(wrong), wrong).toThrow(
      /CONTRACT_TARGET_TRUST_PROXY is the number of proxy hops/,
    )

  const unused = () => Promise.reject(new Error('no request expected'))
  const target = { baseUrl: 'http://127.0.0.1:9', headers: {}, noControl: 'no control', production: true }
  const declared = await readTargetSettings(target, unused, { trustProxyHops: 1 })
  expect(declared.source).toBe(
    'the documented defaults, as the target has no /__mock; its proxy hops as CONTRACT_TARGET_TRUST_PROXY declares',
  )
  expect(compareSettings({ trustProxyHops: 1 }, declared)).toEqual({
    matched: ['trustProxyHops 1'],
    differs: null,
  })
  // A check of a server that reads no X-Forwarded-For does not run against one declared to read it.
  expect(compareSettings({ trustProxyHops: 0 }, declared).differs).toBe(
    "needs a server built with trustProxyHops 0 where the target's is 1 (the documented defaults, as the target has no /__mock; its proxy hops as CONTRACT_TARGET_TRUST_PROXY declares)",
  )
  // Undeclared, the target is the server's default: the checks of a trusted proxy say how to declare one.
  const undeclared = await readTargetSettings(target, unused, {})
  expect(compareSettings({ trustProxyHops: 0 }, undeclared)).toEqual({
    matched: ['trustProxyHops 0'],
    differs: null,
  })
  expect(compareSettings({ trustProxyHops: 1 }, undeclared).differs).toBe(
    "needs a server built with trustProxyHops 1 where the target's is 0 (the documented defaults, as the target has no /__mock; no proxy hops taken, as CONTRACT_TARGET_TRUST_PROXY declares none)",
  )
})

test('external sign-in is read from the target’s authorize call; its origin is declared or the target’s own, never what it says', async () => {
  const hasher = { memoryCost: 1024, timeCost: 1 }
  // A target naming another origin as its own: what a planted redirect to another site looks like.
  const elsewhere = createApp({ publicOrigin: 'http://evil.example', hasher })
  const production = createApp({ production: true, hasher })
  await Promise.all([elsewhere.core.ready, production.core.ready])
  const servers = [await listen(elsewhere), await listen(production)]
  const [withProvider, without] = servers.map((server) => ({ baseUrl: server.baseUrl, headers: {} }))
  try {
    expect(await readExternalSignIn(withProvider!, fetch)).toBe(true)
    expect(await readExternalSignIn(without!, fetch)).toBe(false)
    expect(await readExternalSignIn(without!, () => Promise.reject(new Error('down')))).toBeUndefined()
    const failing = () => Promise.resolve(new Response('{"error":"internal"}', { status: 500 }))
    expect(await readExternalSignIn(without!, failing)).toBeUndefined()

    const target = { ...withProvider!, noControl: 'no control', production: true }
    expect((await readTargetSettings(target, fetch, {})).values.publicOrigin).toBe(withProvider!.baseUrl)
    const declared = await readTargetSettings(target, fetch, { publicOrigin: 'https://app.example' })
    expect(declared.values.publicOrigin).toBe('https://app.example')
    expect(declared.assumed).toEqual(['trustProxyHops'])

    const none = await readTargetSettings(
      { ...without!, noControl: 'no control', production: true },
      fetch,
      {},
    )
    expect(compareSettings({ publicOrigin: 'https://app.example' }, none).differs).toBe(
      "needs a server built with publicOrigin https://app.example where the target's is none (the documented defaults, as the target has no /__mock; its authorize call (GET /api/auth/external/authorize) tells whether it offers external sign-in, at its own URL unless CONTRACT_TARGET_PUBLIC_ORIGIN declares another origin)",
    )
  } finally {
    await Promise.all(servers.map((server) => server.close()))
  }
})

test('CONTRACT_TARGET_PUBLIC_ORIGIN is an origin, or unset', () => {
  expect(readPublicOriginDeclared(undefined)).toBeUndefined()
  expect(readPublicOriginDeclared('https://app.example')).toBe('https://app.example')
  for (const wrong of ['app.example', 'https://app.example/', 'https://app.example/x'])
    expect(() => readPublicOriginDeclared(wrong), wrong).toThrow(
      /CONTRACT_TARGET_PUBLIC_ORIGIN is the origin/,
    )
})
