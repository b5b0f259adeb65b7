// The journal as an HTTP Archive 1.2 (docs/decisions/017-har-record-and-replay.md): every entry valid against the
// control document's HAR schema, redacted in every place a secret can be, and bounded in memory.
import { expect, test } from 'vitest'
import { harProblems } from '../../testing/har-validator.ts'
import { toExchange, type ExchangeInput } from '../pipeline/exchange.ts'
import { toHar } from './har-export.ts'
import { createJournal } from '../pipeline/journal.ts'
import { REDACTED } from '../pipeline/redact.ts'

const clock = { now: () => Date.parse('2026-11-26T10:00:00.000Z') }

const SECRETS = {
  password: 'analytical-engine-1843',
  newPassword: 'a brand new passphrase',
  accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.signature',
  refreshToken: 'refresh-9f8e7d6c5b4a',
  serviceToken: 'service-1a2b3c4d',
  resetToken: 'reset-0a1b2c3d',
  code: '493817',
  state: 'state-abcdefghijklmnop',
  cookie: 'sessioncookievalue123',
  idToken: 'id-token-value-xyz',
  verifier: 'verifier-value-xyz',
}

/** A sign-in as the dispatcher sees it: JSON body with a password, answer with tokens and a cookie. */
function signIn(): ExchangeInput {
  return {
    origin: 'http://127.0.0.1:4010',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json', host: '127.0.0.1:4010' },
    body: { email: 'ada@example.com', password: SECRETS.password },
    response: {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'set-cookie': [`sid=${SECRETS.cookie}; Path=/; HttpOnly; SameSite=Lax`],
      },
      body: JSON.stringify({
        user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
        token: SECRETS.accessToken,
        refresh_token: SECRETS.refreshToken,
        service_token: SECRETS.serviceToken,
      }),
    },
    durationMs: 12.5,
  }
}

/** A protected call with a bearer, a cookie and secrets in its query. */
function protectedCall(): ExchangeInput {
  return {
    origin: 'http://127.0.0.1:4010',
    url: `/api/me?token=${SECRETS.accessToken}&code=${SECRETS.code}&view=full`,
    headers: {
      authorization: `Bearer ${SECRETS.accessToken}`,
      cookie: `sid=${SECRETS.cookie}`,
      accept: 'application/json',
    },
    body: undefined,
    response: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"id":"u1","email":"ada@example.com","name":"Ada"}',
    },
    durationMs: 3,
  }
}

/** Other secrets in request bodies and a redirect. */
function others(): ExchangeInput[] {
  const json = { 'content-type': 'application/json' }
  const ok = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"updated":true}' }
  return [
    {
      origin: 'http://127.0.0.1:4010',
      url: '/api/auth/update_password',
      headers: json,
      body: { reset_token: SECRETS.resetToken, password: SECRETS.newPassword },
      response: ok,
      durationMs: 1,
    },
    {
      origin: 'http://127.0.0.1:4010',
      url: '/api/auth/callback',
      headers: json,
      body: { code: SECRETS.code, state: SECRETS.state, code_verifier: SECRETS.verifier },
      response: {
        ...ok,
        body: JSON.stringify({ id_token: SECRETS.idToken, accessToken: SECRETS.accessToken }),
      },
      durationMs: 1,
    },
    {
      origin: 'http://127.0.0.1:4010',
      url: `/api/auth/external/authorize?state=${SECRETS.state}`,
      headers: {},
      body: undefined,
      response: {
        status: 302,
        headers: { location: `/idp/authorize?state=${SECRETS.state}&redirect_uri=%2Fcallback` },
        body: undefined,
      },
      durationMs: 1,
    },
  ]
}

async function journalOf(inputs: ExchangeInput[]) {
  const journal = createJournal(clock)
  for (const input of inputs) {
    const path = input.url.split('?')[0]!
    await journal.record(
      { method: input.body === undefined ? 'GET' : 'POST', path, status: input.response.status },
      toExchange(input),
    )
  }
  return journal
}

test('the HAR of a journal is valid HAR 1.2 and says what each call sent and got', async () => {
  const har = toHar(await (await journalOf([signIn(), protectedCall(), ...others()])).records())
  expect(harProblems(har)).toEqual([])
  expect(har.log.version).toBe('1.2')
  const [login, me, , , authorize] = har.log.entries
  expect(login!.request).toMatchObject({
    method: 'POST',
    url: 'http://127.0.0.1:4010/api/auth/login',
    postData: { mimeType: 'application/json', text: `{"email":"ada@example.com","password":"${REDACTED}"}` },
  })
  expect(login!.response).toMatchObject({
    status: 200,
    statusText: 'OK',
    content: { mimeType: 'application/json; charset=utf-8' },
    cookies: [{ name: 'sid', value: REDACTED, path: '/', httpOnly: true }],
  })
  expect(JSON.parse(login!.response.content.text!)).toEqual({
    user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
    token: REDACTED,
    refresh_token: REDACTED,
    service_token: REDACTED,
  })
  // The journal's `at` is when the answer went; the entry starts that long before.
  expect(login!.startedDateTime).toBe('2026-11-26T09:59:59.987Z')
  expect(login!.time).toBe(12.5)
  expect(me!.request.queryString).toEqual([
    { name: 'token', value: REDACTED },
    { name: 'code', value: REDACTED },
    { name: 'view', value: 'full' },
  ])
  expect(me!.request.url).toBe(`http://127.0.0.1:4010/api/me?token=${REDACTED}&code=${REDACTED}&view=full`)
  expect(me!.request.headers).toContainEqual({ name: 'authorization', value: `Bearer ${REDACTED}` })
  expect(me!.request.cookies).toEqual([{ name: 'sid', value: REDACTED }])
  expect(authorize!.response.redirectURL).toBe(`/idp/authorize?state=${REDACTED}&redirect_uri=%2Fcallback`)
})

test('no secret is left anywhere in the HAR: bodies both ways, headers, query strings, cookies, redirects', async () => {
  const text = JSON.stringify(
    toHar(await (await journalOf([signIn(), protectedCall(), ...others()])).records()),
  )
  for (const [name, secret] of Object.entries(SECRETS)) {
    expect(text.includes(secret), `${name} is in the HAR`).toBe(false)
  }
})

test('a call whose answer was dropped is written as a browser writes a failed request', async () => {
  const journal = createJournal(clock)
  const input = { ...protectedCall(), response: { ...protectedCall().response, dropped: true as const } }
  await journal.record(
    { method: 'GET', path: '/api/me', status: 200, scenario: 'answer-lost' },
    toExchange(input),
  )
  const har = toHar(await journal.records())
  expect(harProblems(har)).toEqual([])
  expect(har.log.entries[0]!.response).toMatchObject({ status: -1, content: { size: -1 } })
  expect(har.log.entries[0]!.response._failureText).toContain('computed 200')
  expect(har.log.entries[0]!._scenario).toBe('answer-lost')
})

test('the journal keeps headers and bodies for its newest calls within its size limit; older ones keep URL and status', async () => {
  const journal = createJournal(clock, { maxExchangeChars: 2_000 })
  for (let index = 0; index < 6; index += 1)
    await journal.record({ method: 'POST', path: '/api/auth/login', status: 200 }, toExchange(signIn()))
  const har = toHar(await journal.records())
  expect(harProblems(har)).toEqual([])
  const withBodies = har.log.entries.filter((entry) => entry.request.postData !== undefined)
  expect(withBodies.length).toBeGreaterThan(0)
  expect(withBodies.length).toBeLessThan(6)
  // The newest keep theirs; the oldest lost them but still say where they went and what came back.
  expect(har.log.entries.at(-1)!.request.postData).toBeDefined()
  expect(har.log.entries[0]).toMatchObject({
    request: { url: 'http://127.0.0.1:4010/api/auth/login', headers: [] },
    response: { status: 200, headers: [] },
    comment: expect.stringContaining('no longer kept'),
  })
})

test('the JSON journal and its filters are unchanged by the exchanges', async () => {
  const journal = await journalOf([signIn(), protectedCall()])
  expect((await journal.list()).map((entry) => [entry.seq, entry.path])).toEqual([
    [1, '/api/auth/login'],
    [2, '/api/me'],
  ])
  expect((await journal.list())[0]).not.toHaveProperty('exchange')
  expect((await journal.records({ since: '1' })).map(({ entry }) => entry.seq)).toEqual([2])
})

test('the HAR schema refuses what HAR 1.2 does not allow', async () => {
  const har = toHar(await (await journalOf([signIn()])).records())
  expect(harProblems(har)).toEqual([])
  const entry = har.log.entries[0]!
  const broken = [
    { log: { ...har.log, version: '1.1' } },
    { log: { ...har.log, entries: [{ ...entry, response: { ...entry.response, content: undefined } }] } },
    { log: { ...har.log, entries: [{ ...entry, seq: 1 }] } },
    { log: { ...har.log, entries: [{ ...entry, startedDateTime: 'yesterday' }] } },
    { log: { ...har.log, entries: [{ ...entry, request: { ...entry.request, headers: [{ name: 'a' }] } }] } },
  ]
  for (const value of broken) expect(harProblems(JSON.parse(JSON.stringify(value)))).not.toEqual([])
})

/** An answer of bytes, as a replay sends one recorded in base64 (har/replay-core.ts). */
function bytesAnswer(contentType: string, body: Uint8Array): ExchangeInput {
  return {
    origin: 'http://127.0.0.1:4011',
    url: '/api/brand/logo',
    headers: {},
    body: undefined,
    response: { status: 200, headers: { 'content-type': contentType }, body },
    durationMs: 1,
  }
}

test('bytes of a type that is not text are written in base64, as a browser writes an image; their size is in bytes', async () => {
  // A PNG's signature and bytes that are no UTF-8.
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0xc3, 0x28])
  const har = toHar(await (await journalOf([bytesAnswer('image/png', png)])).records())
  expect(harProblems(har)).toEqual([])
  const { content } = har.log.entries[0]!.response
  expect(content).toEqual({
    size: png.byteLength,
    mimeType: 'image/png',
    text: Buffer.from(png).toString('base64'),
    encoding: 'base64',
  })
  expect(Buffer.from(content.text!, 'base64').equals(png)).toBe(true)
})

test('bytes of a text type are written as text, redacted like any answer', async () => {
  const json = new TextEncoder().encode(JSON.stringify({ token: SECRETS.accessToken, user: { name: 'Adà' } }))
  const har = toHar(await (await journalOf([bytesAnswer('application/json', json)])).records())
  expect(harProblems(har)).toEqual([])
  const { content } = har.log.entries[0]!.response
  expect(content.encoding).toBeUndefined()
  expect(JSON.parse(content.text!)).toEqual({ token: REDACTED, user: { name: 'Adà' } })
  expect(JSON.stringify(har)).not.toContain(SECRETS.accessToken)
})
