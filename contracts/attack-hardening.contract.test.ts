// The hardening of the mock server against hostile input, each rule with the test that proves it
// (policies and figures: docs/security/hardening.md).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT, type JWTPayload } from 'jose'
import { beforeAll, describe, expect, test } from 'vitest'
import { arm, bearer, createTestServer, signUp, type TestServer } from '#contracts/fixtures.ts'

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
})

describe('the identity provider redirects only to paths a Location header can carry', () => {
  const STATE = 'state-0123456789abcdef'
  test.each(['/%C4%80', '/x%7F', '/x%E2%80%A8', '/.//evil.example', '/a b'])(
    'POST /idp/authorize with redirect_uri=%s is a 400 naming the field',
    async (redirect) => {
      const { api } = await createTestServer()
      const res = await api
        .post('/idp/authorize')
        .type('form')
        .send(`email=a%40b.co&state=${STATE}&redirect_uri=${redirect.replace(' ', '%20')}`)
        .expect(400)
      expect(res.body).toMatchObject({
        error: 'validation_failed',
        fields: { redirect_uri: expect.any(String) },
      })
    },
  )
})

test('a 405 names the methods the path takes in Allow', async () => {
  const { api } = await createTestServer()
  const res = await api.put('/api/me').expect(405)
  expect(res.headers.allow).toBe('GET')
  expect(res.body.error).toBe('method_not_allowed')
})

test('HSTS is sent over https only, never over plain http', async () => {
  const { api } = await createTestServer({ trustProxy: true })
  const plain = await api.get('/api/_auth/session').expect(200)
  expect(plain.headers['strict-transport-security']).toBeUndefined()
  const secure = await api.get('/api/_auth/session').set('X-Forwarded-Proto', 'https').expect(200)
  expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/)
})

test('config.json never echoes the Host header', async () => {
  const { api } = await createTestServer({ webRoot })
  const res = await api.get('/config.json').set('Host', 'evil.example:4010').expect(200)
  expect(JSON.stringify(res.body)).not.toContain('evil.example')
  expect(res.body.mock).toBe(true)
})

test('source maps are served while developing and never in production mode', async () => {
  const development = await createTestServer({ webRoot })
  await development.api.get('/assets/app-1a2b.js.map').expect(200)
  const production = await createTestServer({ webRoot, production: true })
  await production.api.get('/assets/app-1a2b.js').expect(200)
  const res = await production.api.get('/assets/app-1a2b.js.map').expect(404)
  expect(res.text).not.toContain('secret.ts')
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

  test('a token issued in the future, without the audience, or of another type is token_invalid', async () => {
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
      await resign(server, { ...claims, aud: undefined }, header.typ),
      await resign(server, { ...claims, aud: 'another-api' }, header.typ),
      await resign(server, claims, 'JWT'),
    ]
    for (const token of forged) {
      const res = await server.api.get('/api/me').set(bearer(token)).expect(401)
      expect(res.body.error).toBe('token_invalid')
    }
  })

  test('an unsigned token naming an account neither takes its scenarios nor writes its journal', async () => {
    const server = await createTestServer()
    const victim = await signUp(server.api, 'victim')
    await arm(server.api, { name: 'server-error', email: victim.email, operation: 'getMe' })
    const [, payload] = victim.token.split('.')
    const unsigned = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`
    const res = await server.api.get('/api/me').set(bearer(unsigned)).expect(401)
    expect(res.body.error).toBe('token_invalid')
    const journal = await server.api
      .get(`/__mock/requests?email=${encodeURIComponent(victim.email)}`)
      .expect(200)
    expect(
      journal.body.requests.filter((entry: { operation: string }) => entry.operation === 'getMe'),
    ).toEqual([])
    // The scenario is still armed for the victim's own call.
    await server.api.get('/api/me').set(bearer(victim.token)).expect(503)
  })
})
