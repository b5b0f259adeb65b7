// Several servers on one SQL database behave as one for what the database keeps (docs/mock-server.md, "Where the
// state lives"): a token from one works on all, a log-out on one ends it on all at once, and concurrent refreshes
// of one token spread over the servers rotate it once.
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { CLOCK_READ, holdingClient, META_WRITE } from '../../testing/holding-client.ts'
import { createSqlEngines, type Engine, sqlEngineCases } from '../../testing/sql-stores.ts'
import { migratedSchema, serverOn, serversOnOneDatabase } from '../../testing/shared-servers.ts'
import type { MockApp } from '../app.ts'
import { LOCKOUT_THRESHOLD } from '../shared/constants.ts'
import { ServiceUnavailableError } from '../shared/unavailable.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }

const HOUR_MS = 3_600_000

/** Two servers on one fresh schema; A's statements can be held (mock-server/testing/holding-client.ts). */
async function twoServersOneHeld(engine: Engine) {
  const { sql, schema } = await migratedSchema(engines, engine)
  const held = holdingClient(sql)
  return { a: await serverOn(held.client, schema), b: await serverOn(sql, schema), held }
}

/**
 * An advance of `ms` on `app` whose addition is in the database and whose answer is held, so its server has not yet
 * settled it; `release` lets it go on.
 */
async function advanceHeldUnsettled(app: MockApp, held: ReturnType<typeof holdingClient>, ms: number) {
  const saved = held.holdNext(/^UPDATE \S+\.server_meta SET value = jsonb_set\(value, '\{clockOffsetMs\}'/)
  const advanced = request(app)
    .post('/__mock/clock')
    .send({ advance_ms: ms })
    .then((answer) => answer)
  await saved.caught
  return { advanced, release: saved.release }
}

/** An hour advanced and build-two announced through `app`: what a reset undoes. */
async function hourAndBuildOn(app: MockApp) {
  await request(app).post('/__mock/clock').send({ advance_ms: HOUR_MS }).expect(200)
  await request(app).post('/__mock/build').send({ id: 'build-two' }).expect(200)
}

/** A reset on `app` held at its first statement matching `pattern`. */
async function resetHeldAt(app: MockApp, held: ReturnType<typeof holdingClient>, pattern: RegExp) {
  const hold = held.holdNext(pattern)
  const reset = request(app)
    .post('/__mock/reset')
    .send({})
    .then((answer) => answer)
  await hold.caught
  return { reset, hold }
}

/** A reset's seeding: its first statement after it moved the clock and the build. */
const SEEDING = /^INSERT INTO \S+\.users/

/** The next statement of `held` matching `pattern` (by default a write of the clock or build) fails, as in an outage. */
const cutNext = (held: ReturnType<typeof holdingClient>, pattern = META_WRITE) =>
  held.failNext(pattern, new ServiceUnavailableError('cut'))

/** Two servers, A's statements held; an hour and build-two on B; a reset on A held at its first `pattern`. */
async function resetBesideHourAndBuild(engine: Engine, pattern: RegExp) {
  const servers = await twoServersOneHeld(engine)
  await hourAndBuildOn(servers.b)
  return { ...servers, ...(await resetHeldAt(servers.a, servers.held, pattern)) }
}

/** Answered 200, the reset (of hourAndBuildOn's moves) holds on every one of `apps`; answered 503, it is kept by none. */
async function expectResetAsAnswered(answered: number, apps: MockApp[]) {
  const expected = answered === 200 ? { offset: 0, build: false } : { offset: HOUR_MS, build: true }
  for (const app of apps) {
    const offset = (await request(app).get('/__mock/clock').expect(200)).body.offset_ms
    const build = (await request(app).get('/builds/latest.json')).body.id === 'build-two'
    expect({ answered, offset, build }).toEqual({ answered, ...expected })
  }
}

/** The clock offset each of `apps` reads, in turn. */
async function offsetsOn(apps: MockApp[]): Promise<number[]> {
  const offsets: number[] = []
  for (const app of apps) offsets.push((await request(app).get('/__mock/clock').expect(200)).body.offset_ms)
  return offsets
}

/** A POST of `body` to `app` over HTTP, its request-target sent exactly as written (no client normalizes it). */
async function postAt(app: MockApp, target: string, body: unknown) {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((listening) => server.once('listening', listening))
  const { port } = server.address() as AddressInfo
  const text = JSON.stringify(body)
  const headers = {
    host: `127.0.0.1:${port}`,
    'content-type': 'application/json',
    'content-length': text.length,
  }
  try {
    return await new Promise<{ status: number }>((answered, failed) => {
      const sent = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: target, headers },
        (answer) => {
          answer.resume().on('end', () => answered({ status: answer.statusCode ?? 0 }))
        },
      )
      sent.on('error', failed)
      sent.end(text)
    })
  } finally {
    server.close()
  }
}

describe.each(sqlEngineCases(databaseUrl))('three servers on one $engine database', ({ engine, missing }) => {
  // Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
  const it = missing ? test.skip : test

  it('a token signed in on one works on the others; a log-out on one refuses it on all at once', async () => {
    const [a, b, c] = (await serversOnOneDatabase(engines, engine, 3)).apps
    const signedIn = await request(a!).post('/api/auth/login').send(ADA).expect(200)
    const auth = { Authorization: `Bearer ${signedIn.body.token}` }
    expect((await request(b!).get('/api/me').set(auth).expect(200)).body.email).toBe(ADA.email)
    await request(b!).delete('/api/_auth/session').set(auth).expect(200)
    for (const app of [a!, b!, c!]) {
      const refused = await request(app).get('/api/me').set(auth).expect(401)
      expect(refused.body.error).toBe('session_revoked')
    }
  }, 120_000)

  it('30 refreshes of one token at once, spread over the servers, give one successor pair', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    const signedIn = await request(apps[0]!).post('/api/auth/login').send(ADA).expect(200)
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        request(apps[index % 3]!)
          .post('/api/refresh_token')
          .send({ refresh_token: signedIn.body.refresh_token }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
    const pairs = new Set(answers.map((answer) => `${answer.body.token} ${answer.body.refresh_token}`))
    expect(pairs.size).toBe(1)
    // The successor works on every server; the family was not revoked.
    const [next] = answers
    for (const app of apps)
      await request(app)
        .get('/api/me')
        .set({ Authorization: `Bearer ${next!.body.token}` })
        .expect(200)
  }, 120_000)

  it('every server signs with the secret of the first: a token from the last is valid on the first', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    const signedIn = await request(apps[2]!).post('/api/auth/login').send(ADA).expect(200)
    await request(apps[0]!)
      .get('/api/me')
      .set({ Authorization: `Bearer ${signedIn.body.token}` })
      .expect(200)
    expect(new Set(apps.map((app) => app.core.ops.domain.config.secret)).size).toBe(1)
  }, 120_000)
  it('wrong passwords from one address, spread over the servers, lock it out of the account on all at the threshold', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1)
      await request(apps[attempt % 3]!)
        .post('/api/auth/login')
        .send({ ...ADA, password: 'wrong-password-1' })
        .expect(401)
    // Locked: even the right password is refused, on every server, alike (docs/security/lockout.md).
    for (const app of apps) {
      const refused = await request(app).post('/api/auth/login').send(ADA).expect(401)
      expect(refused.body.error).toBe('invalid_credentials')
    }
  }, 120_000)

  it('the sign-in rate limit of an address counts its calls on every server', async () => {
    const apps = (
      await serversOnOneDatabase(engines, engine, 3, { loginRateLimit: { max: 6, windowMs: 60_000 } })
    ).apps
    for (let call = 0; call < 6; call += 1)
      await request(apps[call % 3]!)
        .post('/api/auth/login')
        .send(ADA)
        .expect(200)
    for (const app of apps) {
      const limited = await request(app).post('/api/auth/login').send(ADA).expect(429)
      expect(limited.body.error).toBe('rate_limited')
    }
  }, 120_000)

  it('wrong codes for one address count across the servers and resends', async () => {
    const apps = (
      await serversOnOneDatabase(engines, engine, 3, { codeGuessLimit: { max: 4, windowMs: 60_000 } })
    ).apps
    const ask = (app: MockApp) =>
      request(app).post('/api/auth/otp/send').send({ email: ADA.email, purpose: 'login' })
    const guess = (app: MockApp) =>
      request(app).post('/api/auth/otp/verify').send({ email: ADA.email, purpose: 'login', code: '000000' })
    await ask(apps[0]!).expect(202)
    const answers = []
    for (let attempt = 0; attempt < 4; attempt += 1) answers.push((await guess(apps[attempt % 3]!)).body)
    expect(answers.map((body) => body.error)).toEqual([
      'invalid_code',
      'invalid_code',
      'invalid_code',
      'rate_limited',
    ])
    for (const app of apps) expect((await guess(app).expect(429)).body.error).toBe('rate_limited')
  }, 120_000)
  it('a scenario armed on one server is served exactly as many times as armed, whichever server answers', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    await request(apps[0]!)
      .post('/__mock/scenarios')
      .send({ name: 'server-error', operation: 'getSession', times: 4 })
      .expect(201)
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => request(apps[index % 3]!).get('/api/_auth/session')),
    )
    expect(answers.filter((answer) => answer.status === 503)).toHaveLength(4)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8)
    expect((await request(apps[2]!).get('/__mock/scenarios').expect(200)).body.armed).toEqual([])
  }, 120_000)

  it("one server's clock move is seen by every server from the next call on", async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    const signedIn = await request(apps[0]!).post('/api/auth/login').send(ADA).expect(200)
    const moved = await request(apps[1]!).post('/__mock/clock').send({ advance_ms: 3_600_000 }).expect(200)
    for (const app of apps) {
      expect((await request(app).get('/__mock/clock').expect(200)).body.offset_ms).toBe(moved.body.offset_ms)
      const expired = await request(app)
        .get('/api/me')
        .set({ Authorization: `Bearer ${signedIn.body.token}` })
        .expect(401)
      expect(expired.body.error).toBe('token_expired')
    }
  }, 120_000)

  it('concurrent clock advances through several servers, and through one, all count; a set is kept as set', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    const advance = (app: MockApp) =>
      request(app).post('/__mock/clock').send({ advance_ms: 1000 }).expect(200)
    await Promise.all([0, 1, 2, 0, 1, 2].map((index) => advance(apps[index]!)))
    await Promise.all([0, 0, 0].map((index) => advance(apps[index]!)))
    for (const app of apps)
      expect((await request(app).get('/__mock/clock').expect(200)).body.offset_ms).toBe(9000)
    const now = '2030-01-01T00:00:00.000Z'
    await request(apps[1]!).post('/__mock/clock').send({ now }).expect(200)
    const read = await request(apps[2]!).get('/__mock/clock').expect(200)
    expect(Math.abs(Date.parse(read.body.now) - Date.parse(now))).toBeLessThan(60_000)
  }, 120_000)

  // One server's calls interleave: a call may read the clock while another call or a save of its own runs there.
  it('a clock move on one server is seen by a call on another even while a call beside it ends there', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    // A sign-in on A has read the clock and waits on the database (the first read of users, the purge's, on A's first
    // call); the clock then moves on B.
    const usersRead = held.holdNext(/FROM \S+\.users/)
    const signIn = request(a)
      .post('/api/auth/login')
      .send({ ...ADA, password: 'wrong-password-1' })
    const signedIn = signIn.then((answer) => answer)
    await usersRead.caught
    await request(b).post('/__mock/clock').send({ advance_ms: HOUR_MS }).expect(200)
    // A clock read on A has read the move; the sign-in ends before its answer comes.
    const clockRead = held.holdNext(CLOCK_READ)
    const read = request(a)
      .get('/__mock/clock')
      .then((answer) => answer)
    await clockRead.caught
    usersRead.release()
    expect((await signedIn).status).toBe(401)
    clockRead.release()
    expect((await read).body.offset_ms).toBe(HOUR_MS)
  }, 120_000)

  it("a clock move on one server is seen by a call on another while that one's own move is being saved", async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    // A's advance is in the database; A has not yet settled it.
    const saved = await advanceHeldUnsettled(a, held, 1000)
    await request(b).post('/__mock/clock').send({ advance_ms: HOUR_MS }).expect(200)
    const read = request(a)
      .get('/__mock/clock')
      .then((answer) => answer)
    // The read either answers at once, from what A alone knew, or asks the database: then A's save may end.
    const first = await Promise.race([
      read.then(() => 'answered'),
      held.sent(CLOCK_READ).then(() => 'reading'),
    ])
    saved.release()
    expect((await saved.advanced).status).toBe(200)
    expect({ first, offset: (await read).body.offset_ms }).toEqual({
      first: 'reading',
      offset: HOUR_MS + 1000,
    })
  }, 120_000)

  it("a reset on one server beside that server's own advance is written as a reset, not as an advance", async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    // A reset on A has read the clock and is clearing the stores; an advance on A is then in the database, unsettled.
    const { reset, hold: clearing } = await resetHeldAt(a, held, /^DELETE FROM \S+\.mails/)
    const saved = await advanceHeldUnsettled(a, held, 1000)
    // The reset moves A's clock (its seed follows), and a set on B lands, before A's advance settles.
    const seeding = held.sent(SEEDING)
    clearing.release()
    await seeding
    const set = await request(b).post('/__mock/clock').send({ now: '2040-01-01T00:00:00.000Z' }).expect(200)
    saved.release()
    expect([(await saved.advanced).status, (await reset).status]).toEqual([200, 200])
    const setOffset = set.body.offset_ms as number
    // The three calls overlap, so any order of them is an answer; none of them leaves the set less 1000.
    const offset = (await request(b).get('/__mock/clock').expect(200)).body.offset_ms
    expect([0, 1000, setOffset, setOffset + 1000]).toContain(offset)
  }, 120_000)

  it('a reset answered 200 holds on every server even when a save beside it on its server fails', async () => {
    // A reset on A has reset its clock and cleared the build, and is seeding.
    const { a, b, held, reset, hold: seeding } = await resetBesideHourAndBuild(engine, SEEDING)
    // A call beside it on A ends; the save it asks for writes the reset's moves, and the database fails it.
    const failed = cutNext(held)
    await request(a)
      .post('/api/auth/login')
      .send({ ...ADA, password: 'wrong-password-1' })
    await failed
    seeding.release()
    await expectResetAsAnswered((await reset).status, [a, b])
  }, 120_000)

  it('a reset answered 503 because a save beside it failed is not kept by its server', async () => {
    // A reset on A is clearing the stores; an advance on A is then cut by the database.
    const {
      a,
      b,
      held,
      reset,
      hold: clearing,
    } = await resetBesideHourAndBuild(engine, /^DELETE FROM \S+\.mails/)
    cutNext(held)
    expect((await request(a).post('/__mock/clock').send({ advance_ms: 1000 })).status).toBe(503)
    clearing.release()
    await expectResetAsAnswered((await reset).status, [a, b])
  }, 120_000)

  it('a reset whose clock write the database fails is answered 503 and kept by none, its cleared build neither', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    await hourAndBuildOn(b)
    // The reset clears the build and moves the clock; the write of the clock fails.
    cutNext(held, /^UPDATE \S+\.server_meta .*clockOffsetMs/s)
    const reset = await request(a).post('/__mock/reset').send({})
    await expectResetAsAnswered(reset.status, [a, b])
    expect(reset.status).toBe(503)
  }, 120_000)

  // The arming is in the database, its answer held; something may move the clock meanwhile; an advance on the same
  // server is then cut by the database.
  it.each([
    { meanwhile: 'nothing else', move: async () => {} },
    {
      meanwhile: 'the clock moved on another server',
      move: (_a: MockApp, b: MockApp) =>
        request(b).post('/__mock/clock').send({ advance_ms: HOUR_MS }).expect(200),
    },
    {
      meanwhile: 'an advance saved on its server',
      move: (a: MockApp) => request(a).post('/__mock/clock').send({ advance_ms: 1000 }).expect(200),
    },
  ])(
    'a scenario armed beside a move cut on its server ($meanwhile meanwhile) is answered as kept, once',
    async ({ move }) => {
      const { a, b, held } = await twoServersOneHeld(engine)
      const written = held.holdNext(/^INSERT INTO \S+\.scenarios/)
      const arm = request(a)
        .post('/__mock/scenarios')
        .send({ name: 'server-error', operation: 'getSession', times: 1 })
        .then((answer) => answer)
      await written.caught
      await move(a, b)
      cutNext(held)
      expect((await request(a).post('/__mock/clock').send({ advance_ms: 1000 })).status).toBe(503)
      written.release()
      const listed = (await request(b).get('/__mock/scenarios').expect(200)).body.armed.length
      expect({ armed: (await arm).status, listed }).toEqual({ armed: 201, listed: 1 })
    },
    120_000,
  )

  it('an advance answered 200 after its server took a reset from another is held on every server', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    await request(b).post('/__mock/clock').send({ advance_ms: HOUR_MS }).expect(200)
    // An advance of an hour on A has read the clock (an hour ahead) and waits on its purge (A's first call).
    const purging = held.holdNext(/FROM \S+\.users/)
    const advanced = request(a)
      .post('/__mock/clock')
      .send({ advance_ms: HOUR_MS })
      .then((answer) => answer)
    await purging.caught
    // A reset on B lands, and a call on A reads it before the advance moves A's clock.
    await request(b).post('/__mock/reset').send({}).expect(200)
    expect((await request(a).get('/__mock/clock').expect(200)).body.offset_ms).toBe(0)
    purging.release()
    expect((await advanced).status).toBe(200)
    const offsets = await offsetsOn([a, b])
    expect(offsets).toEqual([HOUR_MS, HOUR_MS])
  }, 120_000)

  it('an advance answered 200 beside a reset whose save the database cut is held on every server', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    const tenDaysAgo = new Date(Date.now() - 240 * HOUR_MS).toISOString()
    const set = await request(b).post('/__mock/clock').send({ now: tenDaysAgo }).expect(200)
    const past = set.body.offset_ms as number
    // A reset on A has moved A's clock to 0 and is seeding.
    const { reset, hold: seeding } = await resetHeldAt(a, held, SEEDING)
    // An advance on A, of the set's distance from 0, has read the clock (the reset's 0, unsaved) and waits on its
    // purge (the clock moved ten days since the last).
    const purging = held.holdNext(/FROM \S+\.users/)
    const advanced = request(a)
      .post('/__mock/clock')
      .send({ advance_ms: -past })
      .then((answer) => answer)
    await purging.caught
    // The reset's save is cut by the database: A's clock goes back to the set, and the advance then moves it.
    cutNext(held)
    seeding.release()
    expect((await reset).status).toBe(503)
    purging.release()
    const answered = (await advanced).status
    const offsets = await offsetsOn([a, b])
    expect({ answered, offsets }).toEqual({ answered, offsets: answered === 200 ? [0, 0] : [past, past] })
  }, 120_000)

  it('a clock move refused 400 beside a save its server fails is answered 400', async () => {
    // A reset on A has moved its clock and build and is seeding; a refused move then comes, and the next write fails.
    const { a, b, held, reset, hold: seeding } = await resetBesideHourAndBuild(engine, SEEDING)
    cutNext(held)
    const refused = await request(a).post('/__mock/clock').send({ advance_ms: 'soon' })
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 400,
      error: 'validation_failed',
    })
    seeding.release()
    await expectResetAsAnswered((await reset).status, [a, b])
  }, 120_000)

  it('a build announced on one server survives a clock set on another made beside it', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    // A set on A has read the database; a build is then announced on B.
    const clockRead = held.holdNext(CLOCK_READ)
    const set = request(a)
      .post('/__mock/clock')
      .send({ now: '2040-01-01T00:00:00.000Z' })
      .then((answer) => answer)
    await clockRead.caught
    await request(b).post('/__mock/build').send({ id: 'build-two' }).expect(200)
    clockRead.release()
    expect((await set).status).toBe(200)
    for (const app of [a, b])
      expect((await request(app).get('/builds/latest.json')).body.id).toBe('build-two')
  }, 120_000)

  it('a build announced through one server is served by all, and a reset through another clears it for all', async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    await request(apps[0]!).post('/__mock/build').send({ id: 'build-two' }).expect(200)
    for (const app of apps) {
      expect((await request(app).get('/builds/latest.json').expect(200)).body.id).toBe('build-two')
      await request(app).get('/builds/meta/build-two.json').expect(200)
    }
    await request(apps[1]!).post('/__mock/reset').send({}).expect(200)
    for (const app of apps) await request(app).get('/builds/latest.json').expect(404)
  }, 120_000)

  it("the mailbox is every server's mails, and a reset on one empties it for all", async () => {
    const apps = (await serversOnOneDatabase(engines, engine, 3)).apps
    const email = 'lin@example.com'
    await request(apps[0]!)
      .post('/api/auth/signup')
      .send({ name: 'Lin', email, password: 'a long enough passphrase' })
      .expect(202)
    await request(apps[1]!).post('/api/auth/forgot').send({ email: ADA.email }).expect(202)
    const mails = (await request(apps[2]!).get('/__mock/mailbox').expect(200)).body.messages
    expect(mails.map((mail: { to: string }) => mail.to)).toEqual([email, ADA.email])
    const code = mails[0].code
    await request(apps[2]!).post('/api/auth/otp/verify').send({ email, code, purpose: 'signup' }).expect(200)
    await request(apps[2]!).post('/__mock/reset').send({}).expect(200)
    for (const app of apps)
      expect((await request(app).get('/__mock/mailbox').expect(200)).body.messages).toEqual([])
  }, 120_000)

  it.each(['/x/../__mock/clock', '/%2e/__mock/clock', '/__mock\\clock', 'http://127.0.0.1/__mock/clock'])(
    'a clock move sent as %s is held on every server exactly when answered 200',
    async (target) => {
      const { a, b, held } = await twoServersOneHeld(engine)
      // The pipeline reads the path as /__mock/clock; the database cuts the write of its move.
      const cut = cutNext(held)
      const answered = (await postAt(a, target, { advance_ms: HOUR_MS })).status
      await cut
      const offsets = await offsetsOn([a, b])
      expect({ answered, offsets }).toEqual({
        answered,
        offsets: answered === 200 ? [HOUR_MS, HOUR_MS] : [0, 0],
      })
    },
    120_000,
  )

  it('a build announced at /./__mock/build is served by every server exactly when answered 200', async () => {
    const { a, b, held } = await twoServersOneHeld(engine)
    const cut = cutNext(held)
    const answered = (await postAt(a, '/./__mock/build', { id: 'build-two' })).status
    await cut
    const served = []
    for (const app of [a, b])
      served.push((await request(app).get('/builds/latest.json')).body.id === 'build-two')
    expect({ answered, served }).toEqual({
      answered,
      served: answered === 200 ? [true, true] : [false, false],
    })
  }, 120_000)
})
