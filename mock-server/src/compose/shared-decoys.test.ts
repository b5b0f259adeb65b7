// Decoy codes of several servers on one SQL database are one set (docs/security/codes.md): wrong codes for an
// address that has none count on its one decoy whichever server answers, so spreading the guesses over servers
// tells an address with a code from one without, as it does on one server.
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { serversOnOneDatabase } from '../../testing/shared-servers.ts'
import type { MockApp } from '../app.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const guess = (app: MockApp, email: string) =>
  request(app).post('/api/auth/otp/verify').send({ email, code: '000000', purpose: 'signup' })

describe.each(sqlEngineCases(databaseUrl))(
  'decoys of three servers on one $engine database',
  ({ engine, missing }) => {
    // Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
    const it = missing ? test.skip : test

    it('wrong codes spread over the servers answer alike for an address with a code and one without', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3)
      const known = 'known@example.com'
      await request(apps[0]!)
        .post('/api/auth/signup')
        .send({ name: 'Known', email: known, password: 'a long enough passphrase' })
        .expect(202)
      const answers: { known: unknown; unknown: unknown }[] = []
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const app = apps[attempt % 3]!
        const [a, b] = [await guess(app, known), await guess(app, 'nobody@example.com')]
        answers.push({ known: [a.status, a.body], unknown: [b.status, b.body] })
      }
      for (const { known: a, unknown: b } of answers) expect(b).toEqual(a)
      // The fifth wrong code burns either: the code, or the decoy every server counts on.
      expect(answers.map(({ unknown }) => (unknown as [number, { error: string }])[1].error)).toEqual([
        'invalid_code',
        'invalid_code',
        'invalid_code',
        'invalid_code',
        'too_many_attempts',
        'too_many_attempts',
      ])
    }, 120_000)

    it('wrong codes at once through every server for an address without a code burn its decoy after five', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3)
      const answers = await Promise.all(
        Array.from({ length: 9 }, (_, index) => guess(apps[index % 3]!, 'nobody@example.com')),
      )
      const errors = answers.map((answer) => answer.body.error)
      expect(errors.filter((error) => error === 'invalid_code')).toHaveLength(4)
      expect(errors.filter((error) => error === 'too_many_attempts')).toHaveLength(5)
    }, 120_000)
  },
)
