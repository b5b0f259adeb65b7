// The request journal of several servers on one SQL database is one journal (docs/mock-server.md, "Where the state
// lives"): /__mock/requests and its HAR on any server list every server's calls in one order, `since` reads on
// across servers, a reset through one empties it for all, and its caps hold as the memory journal's do.
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { migratedSchema, serversOnOneDatabase } from '../../testing/shared-servers.ts'
import type { MockApp } from '../app.ts'
import { toExchange, type ExchangeInput } from '../pipeline/exchange.ts'
import { createJournal, type Journal } from '../pipeline/journal.ts'
import { createSqlJournal } from './sql-journal.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
const clock = { now: () => Date.parse('2026-11-26T10:00:00.000Z') }

const paths = async (app: MockApp, query = '') =>
  (await request(app).get(`/__mock/requests${query}`).expect(200)).body.requests.map(
    (entry: { path: string }) => entry.path,
  )

/** A sign-in's exchange, its body `chars` characters longer (a name: a password would be redacted to a marker). */
function signIn(chars = 200): ExchangeInput {
  return {
    origin: 'http://127.0.0.1:4010',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    body: { email: ADA.email, name: 'x'.repeat(chars) },
    response: { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"x"}' },
    durationMs: 2,
  }
}

const LOGIN = { method: 'POST', path: '/api/auth/login', operation: 'login', status: 401 }

describe.each(sqlEngineCases(databaseUrl))('the journal on one $engine database', ({ engine, missing }) => {
  // Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
  const it = missing ? test.skip : test

  it("every server's /__mock/requests and its HAR list every server's calls, at once, in one order", async () => {
    const { apps } = await serversOnOneDatabase(engines, engine, 3)
    const [a, b, c] = apps as [MockApp, MockApp, MockApp]
    const signedIn = await request(a).post('/api/auth/login').send(ADA).expect(200)
    // Read through another server as soon as the answer is in: the entry was kept before it went.
    expect(await paths(b)).toEqual(['/api/auth/login'])
    await request(b)
      .get('/api/me')
      .set({ Authorization: `Bearer ${signedIn.body.token}` })
      .expect(200)
    await request(c).get('/api/_auth/session').expect(200)
    for (const app of apps)
      expect(await paths(app)).toEqual(['/api/auth/login', '/api/me', '/api/_auth/session'])
    const listed = (await request(c).get('/__mock/requests').expect(200)).body.requests
    expect(listed.map((entry: { seq: number }) => entry.seq)).toEqual(
      [...listed].map((entry: { seq: number }) => entry.seq).sort((x: number, y: number) => x - y),
    )
    expect(listed[1]).toMatchObject({ operation: 'getMe', status: 200, email: ADA.email })
    const har = (await request(a).get('/__mock/requests?format=har').expect(200)).body
    expect(
      har.log.entries.map((entry: { request: { url: string } }) => new URL(entry.request.url).pathname),
    ).toEqual(['/api/auth/login', '/api/me', '/api/_auth/session'])
    const text = JSON.stringify(har)
    for (const secret of [ADA.password, signedIn.body.token, signedIn.body.refresh_token])
      expect(text.includes(secret)).toBe(false)
  }, 120_000)

  it('`since` a seq one server gave reads on through another; the email filter holds across them', async () => {
    const { apps } = await serversOnOneDatabase(engines, engine, 3)
    const [a, b, c] = apps as [MockApp, MockApp, MockApp]
    await request(a).post('/api/auth/login').send(ADA).expect(200)
    const [first] = (await request(a).get('/__mock/requests').expect(200)).body.requests
    await request(b)
      .post('/api/auth/login')
      .send({ ...ADA, password: 'wrong-password-1' })
      .expect(401)
    await request(c).get('/api/_auth/session').expect(200)
    const after = (await request(c).get(`/__mock/requests?since=${first.seq}`).expect(200)).body.requests
    expect(after.map((entry: { path: string; status: number }) => [entry.path, entry.status])).toEqual([
      ['/api/auth/login', 401],
      ['/api/_auth/session', 200],
    ])
    const ada = (await request(b).get(`/__mock/requests?email=${ADA.email}`).expect(200)).body.requests
    expect(ada.map((entry: { status: number }) => entry.status)).toEqual([200, 401])
    const byTime = await paths(a, `?since=${encodeURIComponent(first.at)}`)
    expect(byTime).toEqual(['/api/auth/login', '/api/auth/login', '/api/_auth/session'])
  }, 120_000)

  it('a reset through one server empties the journal for all; numbering goes on', async () => {
    const { apps } = await serversOnOneDatabase(engines, engine, 3)
    const [a, b, c] = apps as [MockApp, MockApp, MockApp]
    await request(a).get('/api/_auth/session').expect(200)
    await request(c).get('/api/_auth/session').expect(200)
    await request(b).post('/__mock/reset').send({}).expect(200)
    for (const app of apps) expect(await paths(app)).toEqual([])
    await request(a).get('/api/_auth/session').expect(200)
    const [next] = (await request(c).get('/__mock/requests').expect(200)).body.requests
    expect(next.seq).toBe(3)
  }, 120_000)

  it('no password, token or code is written to the table', async () => {
    const { apps, sql, schema } = await serversOnOneDatabase(engines, engine, 1)
    const signedIn = await request(apps[0]!).post('/api/auth/login').send(ADA).expect(200)
    await request(apps[0]!)
      .post('/api/refresh_token')
      .send({ refresh_token: signedIn.body.refresh_token })
      .expect(200)
    const rows = await sql.query(`SELECT entry, exchange, summary FROM ${schema}.journal`)
    expect(rows).toHaveLength(2)
    const text = JSON.stringify(rows)
    for (const secret of [
      ADA.password,
      signedIn.body.token,
      signedIn.body.refresh_token,
      signedIn.body.service_token,
    ])
      expect(text.includes(secret)).toBe(false)
  }, 120_000)

  it('a journal the database cannot write to leaves one line, and the answer goes as it was', async () => {
    const lines: string[] = []
    const { apps, sql, schema } = await serversOnOneDatabase(engines, engine, 1, {
      logError: (line) => lines.push(line),
    })
    await sql.exec(`DROP TABLE ${schema}.journal`)
    await request(apps[0]!).post('/api/auth/login').send(ADA).expect(200)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^Failed to journal POST \/api\/auth\/login 200: /)
    expect(lines[0]).not.toContain(ADA.password)
  }, 120_000)

  it('two journals on one table keep the newest entries, one numbering, as one journal would', async () => {
    const { sql, schema } = await migratedSchema(engines, engine)
    const limits = { schema, maxEntries: 5 }
    const journals = [createSqlJournal(sql, clock, limits), createSqlJournal(sql, clock, limits)]
    for (let index = 0; index < 8; index += 1)
      await journals[index % 2]!.record({ ...LOGIN, status: 400 + index })
    for (const journal of journals)
      expect((await journal.list()).map((entry) => [entry.seq, entry.status])).toEqual([
        [4, 403],
        [5, 404],
        [6, 405],
        [7, 406],
        [8, 407],
      ])
  }, 120_000)

  it('the exchanges past the size limit keep their URL and status, newest kept whole, as in memory', async () => {
    const { sql, schema } = await migratedSchema(engines, engine)
    const limits = { maxExchangeChars: 2_000 }
    const memory = createJournal(clock, limits)
    const shared = [
      createSqlJournal(sql, clock, { schema, ...limits }),
      createSqlJournal(sql, clock, { schema, ...limits }),
    ]
    // The last body holds what jsonb cannot (U+0000, a lone surrogate) and what JSON escapes: it comes back as sent.
    const text = 'nul \u0000, lone \ud800, quote " and \\'
    const odd = {
      ...signIn(0),
      response: { status: 401, headers: { 'content-type': 'text/plain' }, body: text },
    }
    const calls = [signIn(), signIn(700), signIn(), signIn(3_000), signIn(400), signIn(), odd]
    for (const [index, input] of calls.entries()) {
      await memory.record({ ...LOGIN, email: ADA.email }, toExchange(input))
      await shared[index % 2]!.record({ ...LOGIN, email: ADA.email }, toExchange(input))
    }
    const kept = async (journal: Journal) =>
      (await journal.records()).map(({ exchange }) => !exchange!.trimmed)
    expect(await kept(shared[1]!)).toEqual(await kept(memory))
    expect(await kept(memory)).toEqual([false, false, false, false, true, true, true])
    // The same entries, fields in the same order, and the same exchanges, whole or trimmed.
    expect(JSON.stringify(await shared[0]!.list())).toBe(JSON.stringify(await memory.list()))
    expect(await shared[0]!.records({ email: ADA.email, since: '2' })).toEqual(
      await memory.records({ email: ADA.email, since: '2' }),
    )
    expect((await shared[1]!.records()).at(-1)!.exchange!.response.body!.text).toBe(text)
  }, 120_000)
})
