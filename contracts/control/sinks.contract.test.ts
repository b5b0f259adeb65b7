// The mock server's stand-ins for the supporting services, and the build manifest the app polls.
import { gzipSync } from 'node:zlib'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, test } from 'vitest'
import type { ContractAgent } from '#contracts/support/api.ts'
import { notCheckable, requireDirectConnection, TARGET_URL } from '#contracts/support/target.ts'
import { createTestServer, expectMalformedRefused, mockOf, requireOwnServer } from '#contracts/fixtures.ts'
import { scratchDir } from '../../mock-server/testing/scratch-dir.ts'

function envelope(event: Record<string, unknown>): string {
  return [
    JSON.stringify({ event_id: event.event_id, sent_at: new Date().toISOString() }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify(event),
    '',
  ].join('\n')
}

/** An OpenReplay batch: a BatchMetadata header, then size-prefixed messages (UserID 28, Metadata 30). */
function recorderBatch(messages: [number, ...string[]][]): Uint8Array {
  const bytes: number[] = []
  const uint = (value: number) => {
    while (value >= 128) {
      bytes.push((value % 128) | 128)
      value = Math.floor(value / 128)
    }
    bytes.push(value)
  }
  const string = (value: string, into: (n: number) => void, push: (b: number[]) => void) => {
    const encoded = [...Buffer.from(value, 'utf8')]
    into(encoded.length)
    push(encoded)
  }
  uint(81)
  for (const field of [1, 1, 0, 2 * 1_700_000_000_000]) uint(field)
  string('http://app.test/', uint, (b) => bytes.push(...b))
  for (const [type, ...strings] of messages) {
    const payload: number[] = []
    const payloadUint = (value: number) => {
      while (value >= 128) {
        payload.push((value % 128) | 128)
        value = Math.floor(value / 128)
      }
      payload.push(value)
    }
    for (const value of strings) string(value, payloadUint, (b) => payload.push(...b))
    uint(type)
    bytes.push(payload.length & 0xff, (payload.length >> 8) & 0xff, (payload.length >> 16) & 0xff, ...payload)
  }
  return Uint8Array.from(bytes)
}

describe('error-reporting sink', () => {
  test('an envelope is received and its event listed', async () => {
    const { api } = await createTestServer()
    const event = {
      event_id: 'a'.repeat(32),
      level: 'error',
      environment: 'development',
      exception: { values: [{ type: 'Error', value: 'Boom from the app' }] },
    }
    const res = await api
      .post('/api/1/envelope/')
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(envelope(event))
      .expect(200)
    expect(res.body).toEqual({ id: 'a'.repeat(32) })
    const events = (await api.get('/__mock/sentry/events').expect(200)).body.events
    expect(events).toEqual([
      expect.objectContaining({
        type: 'event',
        level: 'error',
        environment: 'development',
        message: 'Error: Boom from the app',
      }),
    ])
  })

  test('an event whose fields are of other types is kept with its strings only, so the listing stays on contract', async () => {
    const { api } = await createTestServer()
    const odd = [
      { exception: { values: [{ type: 1, value: { x: 1 } }] }, tags: [1] },
      { exception: { values: 'x' } },
      { exception: { values: [null, 'x', { type: 'TypeError', value: 'kept' }] }, message: 7 },
    ]
    for (const event of odd) {
      const body = ['{}', '{"type":"event"}', JSON.stringify(event), ''].join('\n')
      await api.post('/api/1/envelope/').set('Content-Type', 'text/plain').send(body).expect(200)
    }
    // The agent checks the listing against its schema: a number where a string belongs would fail here.
    const events = (await api.get('/__mock/sentry/events').expect(200)).body.events
    expect(events).toHaveLength(3)
    expect(events[0]).not.toHaveProperty('tags')
    expect(events[2]).toMatchObject({
      exception: [{ type: 'TypeError', value: 'kept' }],
      message: 'TypeError: kept',
    })
  })

  test("an envelope it cannot read is refused without the parser's words", async () => {
    const { api } = await createTestServer()
    for (const body of [
      'not json',
      '{"event_id":"x"}\n{"type',
      '{}\n{"length":5',
      '[]\n{"type":"event"}',
      '{}\n7',
    ]) {
      const res = await api.post('/api/1/envelope/').set('Content-Type', 'text/plain').send(body).expect(400)
      expect(res.body).toEqual({ error: 'envelope_unreadable', message: 'The envelope could not be read.' })
    }
  })

  test('the events kept are bounded by their total size, the oldest going first', async () => {
    const { api } = await createTestServer({ maxSinkBytes: 4096 })
    for (let index = 0; index < 12; index += 1) {
      const event = {
        event_id: String(index).padStart(32, '0'),
        message: `event ${index} ${'x'.repeat(900)}`,
      }
      await api.post('/api/1/envelope/').set('Content-Type', 'text/plain').send(envelope(event)).expect(200)
    }
    const events = await mockOf(api).sentryEvents()
    expect(JSON.stringify(events).length).toBeLessThanOrEqual(4096)
    expect(events.length).toBeGreaterThan(0)
    expect(events.at(-1)!.message).toMatch(/^event 11 /)
    expect(events[0]!.message).not.toMatch(/^event 0 /)
  })

  test('refuses what it cannot read, a wrong type and a body over 1 MiB', async () => {
    const { api } = await createTestServer()
    expect(
      (await api.post('/api/1/envelope/').set('Content-Type', 'text/plain').send('not json').expect(400)).body
        .error,
    ).toBe('envelope_unreadable')
    await api.post('/api/1/envelope/').send({ event: 1 }).expect(415)
    await api
      .post('/api/1/envelope/')
      .set('Content-Type', 'text/plain')
      .send('x'.repeat(1_048_577))
      .expect(413)
  })
})

describe('session-recorder sink', () => {
  test('a session starts, its batches set the user id and metadata, and it is listed', async () => {
    const { api } = await createTestServer()
    const start = await api
      .post('/ingest/v1/web/start')
      .set('Origin', 'http://app.test')
      .send({ projectKey: 'mock-project' })
      .expect(200)
    expect(start.headers['access-control-allow-origin']).toBe('http://app.test')
    const batch = recorderBatch([
      [28, 'ada@example.com'],
      [30, 'userId', 'u1'],
      [30, 'name', 'Ada Lovelace'],
    ])
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${start.body.token}`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(batch))
      .expect(200)
    const gzipped = gzipSync(recorderBatch([[28, '']]))
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${start.body.token}`)
      .set('Content-Encoding', 'gzip')
      .set('Content-Type', 'application/octet-stream')
      .send(gzipped)
      .expect(200)
    const sessions = (await api.get('/__mock/recorder/sessions').expect(200)).body.sessions
    expect(sessions).toEqual([
      expect.objectContaining({
        id: start.body.sessionID,
        project_key: 'mock-project',
        user_id: null,
        metadata: { userId: 'u1', name: 'Ada Lovelace' },
        batches: 2,
        messages: 4,
      }),
    ])
  })

  test('the user id given at start is kept until a batch changes it', async () => {
    const { api } = await createTestServer()
    await api
      .post('/ingest/v1/web/start')
      .send({ projectKey: 'k', userID: 'grace@example.com', metadata: { name: 'Grace' } })
      .expect(200)
    expect((await api.get('/__mock/recorder/sessions')).body.sessions[0]).toMatchObject({
      user_id: 'grace@example.com',
      metadata: { name: 'Grace' },
    })
  })

  test('answers CORS preflights, lists no tags, accepts images', async () => {
    const { api, app } = await createTestServer()
    const preflight = await request(app)
      .options('/ingest/v1/web/i')
      .set('Origin', 'http://app.test')
      .expect(204)
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization')
    expect((await api.get('/ingest/v1/web/tags').expect(200)).body).toEqual({ tags: [] })
    await api
      .post('/ingest/v1/web/images')
      .set('Content-Type', 'multipart/form-data; boundary=x')
      .send('--x--')
      .expect(200)
  })

  test('a batch without a known token is 401, an unreadable one 400', async () => {
    const { api } = await createTestServer()
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', 'Bearer nope')
      .send(Buffer.from(recorderBatch([])))
      .expect(401)
    const start = await api.post('/ingest/v1/web/start').send({ projectKey: 'k' }).expect(200)
    const res = await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${start.body.token}`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from([28, 9, 9]))
      .expect(400)
    expect(res.body).toEqual({ error: 'batch_unreadable', message: 'The batch could not be read.' })
  })

  test('oversized batch and image bodies are 413, refused before they are read', async () => {
    // The server stops reading at the limit and ends the connection; a proxy still sending the body may then
    // answer a 502 of its own, so this is a check of the server's own connection.
    requireDirectConnection('sends a body over the limit, which the server ends the connection on')
    const { api } = await createTestServer()
    await api
      .post('/ingest/v1/web/i')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(2_097_153))
      .expect(413)
    await api
      .post('/ingest/v1/web/images')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(4_194_305))
      .expect(413)
  })

  test('the sessions kept are bounded by their total size, the oldest going first with their upload token', async () => {
    const { api } = await createTestServer({ maxSinkBytes: 4096 })
    const tokens: string[] = []
    for (let index = 0; index < 12; index += 1) {
      const start = await api
        .post('/ingest/v1/web/start')
        .send({ projectKey: `k${index}`, metadata: { note: 'x'.repeat(600) } })
        .expect(200)
      tokens.push(start.body.token)
    }
    // A batch grows the newest session past its share: the oldest kept go to make room.
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${tokens.at(-1)}`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(recorderBatch([[30, 'big', 'y'.repeat(1500)]])))
      .expect(200)
    const sessions = await mockOf(api).recorderSessions()
    expect(JSON.stringify(sessions).length).toBeLessThanOrEqual(4096)
    expect(sessions.at(-1)!.project_key).toBe('k11')
    expect(sessions.map((session) => session.project_key)).not.toContain('k0')
    await api
      .post('/ingest/v1/web/i')
      .set('Authorization', `Bearer ${tokens[0]}`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(recorderBatch([])))
      .expect(401)
  })

  test('refuses a malformed start', async () => {
    const { api } = await createTestServer()
    await expectMalformedRefused(api, '/ingest/v1/web/start', {
      invalid: {},
      oversized: { projectKey: 'x'.repeat(20_000) },
    })
  })

  test('the sinks are off in production mode', async () => {
    const { app } = await createTestServer({ production: true })
    // Not through the validating agent: in production mode the sinks are not part of what is served. Against a
    // target in production mode, sent to it by fetch, which the run counts.
    if (TARGET_URL) {
      expect((await fetch(`${TARGET_URL}/__mock/sentry/events`)).status).toBe(404)
      const start = await fetch(`${TARGET_URL}/ingest/v1/web/start`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ projectKey: 'k' }),
      })
      expect(start.status).toBe(404)
      return
    }
    await request(app).get('/__mock/sentry/events').expect(404)
    await request(app).post('/ingest/v1/web/start').send({ projectKey: 'k' }).expect(404)
  })
})

describe('build manifest', () => {
  function webRootWithBuild(id: string): string {
    const root = scratchDir('build')
    mkdirSync(join(root, 'builds', 'meta'), { recursive: true })
    writeFileSync(join(root, 'builds', 'latest.json'), JSON.stringify({ id, timestamp: 1 }))
    writeFileSync(join(root, 'builds', 'meta', `${id}.json`), JSON.stringify({ id, timestamp: 1 }))
    return root
  }

  /**
   * A server and the build its web build wrote: in process one over a web root holding build-one; against a target,
   * the target and the build it says is latest, when it serves a built app (a target serving none skips this).
   */
  async function servedBuild(): Promise<{ api: ContractAgent; latest: { id: string; timestamp: number } }> {
    if (!TARGET_URL) {
      const { api } = await createTestServer({ webRoot: webRootWithBuild('build-one') })
      return { api, latest: { id: 'build-one', timestamp: 1 } }
    }
    const { api } = await createTestServer()
    const index = await api.get('/').set('Accept', 'text/html')
    if (index.status !== 200)
      notCheckable(
        `needs a target that serves the web app, and GET / answers ${index.status} (run npm run build first)`,
      )
    return { api, latest: (await api.get('/builds/latest.json').expect(200)).body }
  }

  test('serves the build the web build wrote, and its manifest', async () => {
    const { api, latest } = await servedBuild()
    expect((await api.get('/builds/latest.json').expect(200)).body).toEqual(latest)
    expect((await api.get(`/builds/meta/${latest.id}.json`).expect(200)).body.id).toBe(latest.id)
    await api.get(`/builds/meta/${latest.id === 'build-two' ? 'build-three' : 'build-two'}.json`).expect(404)
    await api.get('/builds/meta/bad%20id.json').expect(400)
  })

  test('QA can announce another build; reset takes it back', async () => {
    const { api } = await createTestServer({ webRoot: webRootWithBuild('build-one') })
    expect((await api.post('/__mock/build').send({ id: 'build-two' }).expect(200)).body.id).toBe('build-two')
    expect((await api.get('/builds/latest.json').expect(200)).body.id).toBe('build-two')
    await api.get('/builds/meta/build-two.json').expect(200)
    await api.post('/__mock/reset').send({}).expect(200)
    expect((await api.get('/builds/latest.json').expect(200)).body.id).toBe('build-one')
  })

  test('without a built app there is no build to announce', async () => {
    requireOwnServer('needs a server without a built web app')
    const { api } = await createTestServer()
    await api.get('/builds/latest.json').expect(404)
  })

  test('refuses a malformed announcement', async () => {
    const { api } = await createTestServer()
    await expectMalformedRefused(api, '/__mock/build', {
      invalid: { id: '../etc' },
      oversized: { id: 'x'.repeat(20_000) },
    })
  })
})
