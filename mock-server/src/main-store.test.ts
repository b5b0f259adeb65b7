// Where `npm run mock` keeps its state: --data <dir> (embedded PostgreSQL, one server per folder, a JSON data file of
// earlier releases taken over once) and --database <url> with `migrate` (docs/mock-server.md, "Where the state lives").
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { expect, inject, test } from 'vitest'
import { EMBEDDED_START, embeddedStartsTimeout, runMain } from '../testing/run-main.ts'
import { createApp } from './app.ts'
import { PRODUCT_MIGRATIONS } from './product/storage/migrations.ts'
import { scratchDir } from '../testing/scratch-dir.ts'

const LISTENING = /listening on (http:\/\/\S+)/
const databaseUrl = inject('databaseUrl')

const stateOf = async (origin: string) =>
  (await (await fetch(`${origin}/__mock/state`)).json()) as { store: { users: { email: string }[] } }

test(
  'a second server on one --data folder stops with one line (exit 2); the first keeps serving',
  async () => {
    const dir = join(scratchDir('mock-store'), 'state')
    const first = await runMain(
      ['--port', '0', '--web', 'none', '--quiet', '--data', dir],
      LISTENING,
      {},
      EMBEDDED_START,
    )
    try {
      const second = await runMain(
        ['--port', '0', '--web', 'none', '--quiet', '--data', dir],
        /Failed to start/,
      )
      expect(await second.code).toBe(2)
      expect(second.read()).toContain(`${dir} is in use by process`)
      const origin = LISTENING.exec(first.output)![1]!
      expect((await fetch(`${origin}/api/_auth/session`)).status).toBe(200)
    } finally {
      first.stop()
      await first.code
    }
  },
  embeddedStartsTimeout(1),
)

test(
  'a JSON data file of an earlier release is taken over once into <file>.d and left as it was',
  async () => {
    const file = join(scratchDir('mock-store'), 'state.json')
    const old = createApp({ dataFile: file, hasher: { memoryCost: 1024, timeCost: 1 } })
    await old.core.ready
    await request(old)
      .post('/api/auth/signup')
      .send({ name: 'Kept', email: 'kept@example.test', password: 'a long enough passphrase' })
      .expect(202)
    await old.core.flush()
    const before = readFileSync(file, 'utf8')
    const server = await runMain(
      ['--port', '0', '--web', 'none', '--data', file],
      LISTENING,
      {},
      EMBEDDED_START,
    )
    try {
      await server.waitFor(/State in /)
      expect(server.read()).toContain(`State in ${file}.d`)
      const origin = LISTENING.exec(server.output)![1]!
      expect((await stateOf(origin)).store.users.map((user) => user.email)).toContain('kept@example.test')
      expect(readFileSync(file, 'utf8')).toBe(before)
    } finally {
      server.stop()
      await server.code
    }
  },
  embeddedStartsTimeout(1),
)

test('--data refuses a folder of other files, where the database would land among them (exit 2)', async () => {
  const dir = scratchDir('mock-store')
  writeFileSync(join(dir, 'notes.txt'), 'mine')
  const refused = await runMain(['--port', '0', '--data', dir], /Failed to start/)
  expect(await refused.code).toBe(2)
  expect(refused.read()).toContain(`--data ${dir} holds other files`)
  expect(readdirSync(dir)).toEqual(['notes.txt'])
})

test('--database refuses a password on the command line, and --data beside it', async () => {
  const withPassword = await runMain(
    ['--database', 'postgres://app:hunter2@127.0.0.1/app'],
    /Failed to start/,
  )
  expect(await withPassword.code).toBe(2)
  expect(withPassword.read()).toContain('DATABASE_URL or PGPASSWORD')
  expect(withPassword.read()).not.toContain('hunter2')
  // node-postgres reads a password from the query too.
  for (const query of ['?password=hunter2', '?sslmode=require&sslpassword=hunter2']) {
    const inQuery = await runMain(['--database', `postgres://app@127.0.0.1/app${query}`], /Failed to start/)
    expect(await inQuery.code).toBe(2)
    expect(inQuery.read()).toContain('DATABASE_URL or PGPASSWORD')
    expect(inQuery.read()).not.toContain('hunter2')
  }
  const both = await runMain(['--database', 'postgres://127.0.0.1/app', '--data', 'x'], /Failed to start/)
  expect(await both.code).toBe(2)
})

test.skipIf(databaseUrl === null)(
  'migrate applies the migrations once; a second run finds the database current',
  async () => {
    const url = new URL(databaseUrl!)
    const schema = `m_${Date.now().toString(36)}`
    url.searchParams.set('options', `-c search_path=${schema},public`)
    const env = { DATABASE_URL: url.href }
    const { openPostgres } = await import('./compose/sql-drivers.ts')
    const admin = openPostgres(databaseUrl!, () => undefined)
    await admin.exec(`CREATE SCHEMA ${schema}`)
    try {
      const first = await runMain(['migrate'], /Applied migrations|current|Failed/, env)
      expect(await first.code).toBe(0)
      expect(first.read()).toContain(
        `Applied migrations ${PRODUCT_MIGRATIONS.map((m) => m.version).join(', ')}.`,
      )
      const second = await runMain(['migrate'], /Applied migrations|current|Failed/, env)
      expect(await second.code).toBe(0)
      expect(second.read()).toContain('The database is current.')
      expect(first.read() + second.read()).not.toContain(url.password)
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`)
      await admin.close()
    }
  },
  90_000,
)

test.skipIf(databaseUrl === null)(
  "the start line names the host, port and database connected to, a query's over the URL's own, and no password",
  async () => {
    const real = new URL(databaseUrl!)
    const schema = `b_${Date.now().toString(36)}`
    const url = new URL(real.href)
    url.hostname = 'decoy.invalid'
    url.port = '1'
    url.searchParams.set('host', real.hostname)
    url.searchParams.set('port', real.port || '5432')
    url.searchParams.set('options', `-c search_path=${schema},public`)
    const { openPostgres } = await import('./compose/sql-drivers.ts')
    const admin = openPostgres(databaseUrl!, () => undefined)
    await admin.exec(`CREATE SCHEMA ${schema}`)
    try {
      const started = await runMain(['--port', '0', '--web', 'none'], /State in|Failed/, {
        DATABASE_URL: url.href,
      })
      expect(started.read()).toContain(
        `State in PostgreSQL at ${real.hostname}:${real.port || '5432'}${real.pathname}.`,
      )
      expect(started.read()).not.toContain(real.password)
      started.stop()
      expect(await started.code).toBe(0)
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`)
      await admin.close()
    }
  },
  90_000,
)

test.skipIf(databaseUrl === null)(
  'a database a newer server migrated stops the start with its one reason, said once',
  async () => {
    const url = new URL(databaseUrl!)
    const schema = `n_${Date.now().toString(36)}`
    url.searchParams.set('options', `-c search_path=${schema},public`)
    const { openPostgres } = await import('./compose/sql-drivers.ts')
    const admin = openPostgres(databaseUrl!, () => undefined)
    await admin.exec(`CREATE SCHEMA ${schema}`)
    await admin.exec(
      `CREATE TABLE ${schema}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text);
       INSERT INTO ${schema}.schema_migrations (version, name) VALUES (99, 'from the future')`,
    )
    try {
      const started = await runMain(['--port', '0'], /Failed to start|listening/, { DATABASE_URL: url.href })
      expect(await started.code).toBe(2)
      const known = Math.max(...PRODUCT_MIGRATIONS.map((migration) => migration.version))
      expect(started.read().trim()).toBe(
        `Failed to start: the database is at schema version 99, newer than this server's ${known}. Run a newer server.`,
      )
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`)
      await admin.close()
    }
  },
  90_000,
)

test('--data given a file of something else stops with one line, quoting none of it and making nothing beside it', async () => {
  const dir = scratchDir('mock-store')
  const foreign = join(dir, 'passwd')
  writeFileSync(foreign, 'root:x:0:0:root:/root:/bin/bash\n')
  const notOurs = join(dir, 'package.json')
  writeFileSync(notOurs, '{"name":"another-tool"}')
  // The format's number alone is no data file; nor is a file whose folder was made by hand (or by an older start).
  const formatOnly = join(dir, 'format.json')
  writeFileSync(formatOnly, '{"format":1}')
  const withFolder = join(dir, 'secret.txt')
  writeFileSync(withFolder, 'TOPSECRET-password-hunter2')
  mkdirSync(`${withFolder}.d`)
  for (const file of [foreign, notOurs, formatOnly, withFolder]) {
    const refused = await runMain(['--data', file], /Failed to start|listening on/)
    expect(await refused.code).toBe(2)
    expect(refused.read().trim()).toBe(
      `Failed to start: --data ${file} is a file, and not a data file of this server; give a folder for the embedded store.`,
    )
  }
  expect(readdirSync(dir).sort()).toEqual([
    'format.json',
    'package.json',
    'passwd',
    'secret.txt',
    'secret.txt.d',
  ])
  expect(readdirSync(`${withFolder}.d`)).toEqual([])
  const empty = await runMain(['--data', ''], /Failed to start|listening on/)
  expect(await empty.code).toBe(2)
  expect(empty.read().trim()).toBe(
    'Failed to start: --data is empty; give a folder, or leave it out (memory).',
  )
})
