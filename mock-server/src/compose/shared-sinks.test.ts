// The error-reporting and session-recorder sinks of several servers on one SQL database are one pair of sinks
// (docs/mock-server.md, "Where the state lives"): what one receives every one lists, the caps hold over all of
// them, a reset through one empties them for all, and no upload token is kept in clear.
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { serversOnOneDatabase } from '../../testing/shared-servers.ts'
import { createApp, type MockApp } from '../app.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { hashToken } from '../shared/crypto.ts'
import type { SqlClient } from '../shared/sql.ts'
import { ServiceUnavailableError } from '../shared/unavailable.ts'
import { migrate } from '../shared/sql-migrate.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const envelope = (id: string, message: string) =>
  [JSON.stringify({ event_id: id }), '{"type":"event"}', JSON.stringify({ event_id: id, message }), ''].join(
    '\n',
  )

/** An OpenReplay batch of Metadata messages (type 30), each with its one-byte size prefix padded to three. */
function metadataBatch(entries: [string, string][]): Buffer {
  const bytes: number[] = [81, 1, 1, 0, 0, 0]
  for (const [key, value] of entries) {
    const payload = [key, value].flatMap((text) => [text.length, ...Buffer.from(text)])
    bytes.push(30, payload.length, 0, 0, ...payload)
  }
  return Buffer.from(bytes)
}

const sendEvent = (app: MockApp, id: string, message: string) =>
  request(app)
    .post('/api/1/envelope/')
    .set('Content-Type', 'text/plain')
    .send(envelope(id, message))
    .expect(200)
const startRecording = async (app: MockApp, projectKey: string) =>
  (await request(app).post('/ingest/v1/web/start').send({ projectKey }).expect(200)).body.token as string
const sendBatch = (app: MockApp, token: string, batch: Buffer) =>
  request(app)
    .post('/ingest/v1/web/i')
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/octet-stream')
    .send(batch)
const listEvents = async (app: MockApp) =>
  (await request(app).get('/__mock/sentry/events').expect(200)).body.events
const listSessions = async (app: MockApp) =>
  (await request(app).get('/__mock/recorder/sessions').expect(200)).body.sessions

/** `client`, out of reach (as the driver says it: compose/sql-drivers.ts) while `down.now` is true. */
function switchable(client: SqlClient, down: { now: boolean }): SqlClient {
  const reach = () => {
    if (down.now) throw new ServiceUnavailableError('The database is out of reach (cut by the test).')
  }
  return {
    query: async (text, params) => (reach(), client.query(text, params)),
    exec: async (text) => (reach(), client.exec(text)),
    transaction: async (work) => (reach(), client.transaction(work)),
    close: () => client.close(),
  }
}

async function storedText(sql: SqlClient, schema: string): Promise<string> {
  const rows = await sql.query(
    `SELECT token_hash, body FROM ${schema}.recorder_sessions UNION ALL SELECT '', body FROM ${schema}.sink_events`,
  )
  return JSON.stringify(rows)
}

describe.each(sqlEngineCases(databaseUrl))(
  'the sinks of three servers on one $engine database',
  ({ engine, missing }) => {
    // Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
    const it = missing ? test.skip : test

    it('an envelope received by one is listed by all; a recording started on one takes batches through the others', async () => {
      const { apps, sql, schema } = await serversOnOneDatabase(engines, engine, 3)
      const [a, b, c] = apps as [MockApp, MockApp, MockApp]
      await sendEvent(a, 'a'.repeat(32), 'Boom on a')
      await sendEvent(b, 'b'.repeat(32), 'Boom on b')
      for (const app of apps)
        expect((await listEvents(app)).map((event: { message: string }) => event.message)).toEqual([
          'Boom on a',
          'Boom on b',
        ])
      const token = await startRecording(a, 'shared')
      await sendBatch(b, token, metadataBatch([['userId', 'u1']])).expect(200)
      await sendBatch(c, token, metadataBatch([['name', 'Ada']])).expect(200)
      for (const app of apps)
        expect(await listSessions(app)).toEqual([
          expect.objectContaining({
            project_key: 'shared',
            batches: 2,
            messages: 2,
            metadata: { userId: 'u1', name: 'Ada' },
          }),
        ])
      // The upload token is kept as its hash only.
      const stored = await storedText(sql, schema)
      expect(stored).not.toContain(token)
      expect(stored).toContain(hashToken(token))
    }, 120_000)

    it('batches of one session sent at once through every server are all counted', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3)
      const token = await startRecording(apps[0]!, 'busy')
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          sendBatch(apps[index % 3]!, token, metadataBatch([[`k${index}`, 'v']])),
        ),
      )
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
      const [session] = await listSessions(apps[1]!)
      expect(session).toMatchObject({ batches: 24, messages: 24 })
      expect(Object.keys(session.metadata)).toHaveLength(24)
    }, 120_000)

    it('the caps hold over every server: the newest kept within the size, the oldest session going with its token', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3, { maxSinkBytes: 4096 })
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          sendEvent(apps[index % 3]!, String(index).padStart(32, '0'), `event ${index} ${'x'.repeat(900)}`),
        ),
      )
      await sendEvent(apps[0]!, 'f'.repeat(32), 'the last')
      const tokens: string[] = []
      for (let index = 0; index < 12; index += 1)
        tokens.push(await startRecording(apps[index % 3]!, `k${index}`))
      await sendBatch(apps[1]!, tokens.at(-1)!, metadataBatch([['big', 'y'.repeat(120)]])).expect(200)
      for (const app of apps) {
        const events = await listEvents(app)
        expect(JSON.stringify(events).length).toBeLessThanOrEqual(4096)
        expect(events.length).toBeLessThan(13)
        expect(events.at(-1).message).toBe('the last')
        const sessions = await listSessions(app)
        expect(JSON.stringify(sessions).length).toBeLessThanOrEqual(4096)
        expect(sessions.at(-1).project_key).toBe('k11')
      }
      // Twelve sessions of some 200 bytes fit: sessions need not go. Many more make the oldest go, token and all.
      for (let index = 12; index < 40; index += 1)
        tokens.push(await startRecording(apps[index % 3]!, `k${index}`))
      const kept = (await listSessions(apps[2]!)).map(
        (session: { project_key: string }) => session.project_key,
      )
      expect(kept).not.toContain('k0')
      expect(kept.at(-1)).toBe('k39')
      for (const app of apps) await sendBatch(app, tokens[0]!, metadataBatch([])).expect(401)
    }, 120_000)

    it('a reset through one server empties the sinks of all', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3)
      await sendEvent(apps[0]!, 'c'.repeat(32), 'before the reset')
      const token = await startRecording(apps[1]!, 'before')
      await request(apps[2]!).post('/__mock/reset').send({}).expect(200)
      for (const app of apps) {
        expect(await listEvents(app)).toEqual([])
        expect(await listSessions(app)).toEqual([])
        await sendBatch(app, token, metadataBatch([])).expect(401)
      }
    }, 120_000)

    it('with the database out of reach an envelope or a batch is 503, never refused as unreadable or unknown', async () => {
      const { sql, schema } = await engines.fresh(engine)
      await migrate(sql, PRODUCT_MIGRATIONS, schema)
      const down = { now: false }
      const app = createApp({
        hasher: { memoryCost: 1024, timeCost: 1 },
        sql: { client: switchable(sql, down), schema },
      })
      await app.core.ready
      const token = await startRecording(app, 'cut')
      down.now = true
      const refused = await request(app)
        .post('/api/1/envelope/')
        .set('Content-Type', 'text/plain')
        .send(envelope('d'.repeat(32), 'lost'))
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 503,
        error: 'service_unavailable',
      })
      const batch = await sendBatch(app, token, metadataBatch([['k', 'v']]))
      expect({ status: batch.status, error: batch.body.error }).toEqual({
        status: 503,
        error: 'service_unavailable',
      })
      down.now = false
      await sendBatch(app, token, metadataBatch([['k', 'v']])).expect(200)
      expect(await listSessions(app)).toEqual([expect.objectContaining({ batches: 1 })])
    }, 120_000)
  },
)
