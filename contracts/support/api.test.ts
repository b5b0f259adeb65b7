import express from 'express'
import { describe, expect, test } from 'vitest'
import { createContractAgent, recordCoverage, requireValidFetchResponse } from '#contracts/support/api.ts'

function createTinyApp() {
  const app = express()
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    next()
  })
  app.get('/api/me', (req, res) => {
    if (req.query.broken) return res.json({ id: 'u1', email: 'ada@example.com' })
    res.json({ id: 'u1', email: 'ada@example.com', name: 'Ada', seen: req.get('cookie') ?? null })
  })
  app.get('/api/help', (_req, res) => res.json({ articles: [] }))
  app.get('/api/echo-cookie', (req, res) => res.json({ cookie: req.get('cookie') ?? null }))
  // The contract wants the external sign-in's binding cookie here, with its flags (api/openapi.yaml).
  app.get('/api/auth/external/authorize', (_req, res) => {
    res.cookie('sso', 'kept', { httpOnly: true, sameSite: 'lax', path: '/' })
    res.status(302).location('/idp/authorize').end()
  })
  return app
}

describe('createContractAgent', () => {
  test('returns supertest responses through the usual chain', async () => {
    const api = createContractAgent(createTinyApp())
    const res = await api.get('/api/help').set('Cookie', 'sid=1').expect(200)
    expect(res.body).toEqual({ articles: [] })
    const redirect = await api.request('GET', '/api/auth/external/authorize?state=abcdefghijklmnop')
    expect(redirect.headers.location).toBe('/idp/authorize')
  })

  test('rejects a response that does not match the document, with the errors and the body', async () => {
    const api = createContractAgent(createTinyApp())
    const failure = await api.get('/api/me?broken=1').catch((e: Error) => e)
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).name).toBe('AssertionError')
    expect((failure as Error).message).toContain(
      'GET /api/me → 200 does not match api/openapi.yaml (getMe, response 200)',
    )
    expect((failure as Error).message).toContain("body: must have required property 'name'")
    expect((failure as Error).message).toContain('Response body: {"id":"u1","email":"ada@example.com"}')
  })

  test('validates before the test’s own expectations', async () => {
    const api = createContractAgent(createTinyApp())
    await expect(api.get('/api/me').set('Cookie', 'sid=1').expect(200)).rejects.toThrow(
      'must NOT have additional properties (seen)',
    )
  })

  test('keeps cookies between requests with keepCookies', async () => {
    const api = createContractAgent(createTinyApp(), { keepCookies: true })
    await api.get('/api/auth/external/authorize?state=abcdefghijklmnop').expect(302)
    expect((await api.get('/api/echo-cookie')).body).toEqual({ cookie: 'sso=kept' })
  })

  test('wants Secure cookies when the test sent the request as over https (X-Forwarded-Proto)', async () => {
    const api = createContractAgent(createTinyApp())
    const authorize = () => api.get('/api/auth/external/authorize?state=abcdefghijklmnop')
    await authorize().set('X-Forwarded-Proto', 'https, http').expect(302)
    await expect(authorize().set('X-Forwarded-Proto', 'https')).rejects.toThrow(
      'header Set-Cookie of authorizeExternal 302: cookie sso (sso=…; Path=/; HttpOnly; SameSite=Lax) lacks Secure (the request came over https)',
    )
  })

  test('lets a request no document describes through, unvalidated', async () => {
    const api = createContractAgent(createTinyApp())
    await api.get('/api/nope').expect(404)
  })
})

describe('requireValidFetchResponse', () => {
  test('validates a fetch Response and leaves its body readable', async () => {
    const response = new Response(JSON.stringify({ articles: [] }), {
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    })
    const result = await requireValidFetchResponse('GET', '/api/help', response)
    expect(result).toMatchObject({ operationId: 'getHelp', documentedStatus: '200', errors: [] })
    expect(await response.json()).toEqual({ articles: [] })
  })
})

describe('recordCoverage', () => {
  test('refuses a status the operation does not document', () => {
    expect(() => recordCoverage('resetMock', 503)).toThrow(
      'Failed to record coverage: status 503 is not documented for resetMock.',
    )
    expect(() => recordCoverage('getMe', 503)).not.toThrow()
  })
})
