// The control surface's state in the SQL database every instance shares (docs/mock-server.md, "Where the state
// lives"): a scenario armed through one instance is served exactly as many times as armed, whichever instance
// answers, and the mailbox is every instance's mails. Tables: migration 3 of product/storage/migrations.ts.
import type { Mail, Mailbox } from '../control/mailbox.ts'
import { matches, scenarioOf, type ArmedScenario, type Scenarios } from '../control/scenarios.ts'
import type { Clock } from '../shared/clock.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import { withTextEscapes } from '../product/storage/sql-text.ts'

/**
 * @example
 * const scenarios = createSqlScenarios(client, clock, 't_1a2b')
 * await scenarios.arm({ name: 'latency', delay_ms: 500 })
 */
export function createSqlScenarios(client: SqlClient, clock: Clock, schema?: string): Scenarios {
  const sql = withTextEscapes(client)
  const table = qualified('scenarios', schema)
  const all = async () =>
    (
      await sql.query<{ body: ArmedScenario; remaining: number | null }>(
        `SELECT body, remaining FROM ${table} ORDER BY seq`,
      )
    ).map(({ body, remaining }) => ({ ...body, remaining }))
  return {
    async arm(request) {
      const scenario = scenarioOf(request, clock)
      const { remaining, ...body } = scenario
      await sql.query(`INSERT INTO ${table} (id, email, body, remaining) VALUES ($1, $2, $3::jsonb, $4)`, [
        scenario.id,
        scenario.email ?? null,
        JSON.stringify(body),
        remaining,
      ])
      return scenario
    },
    async take(call) {
      // The earliest match whose use this instance wins: a use is spent by one conditional update, and a
      // scenario another instance spent meanwhile is passed over for the next match.
      for (const scenario of (await all()).filter((armed) => matches(armed, call))) {
        if (scenario.remaining === null) return scenario
        const [spent] = await sql.query<{ remaining: number }>(
          `UPDATE ${table} SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0 RETURNING remaining`,
          [scenario.id],
        )
        if (!spent) continue
        if (spent.remaining <= 0) await sql.query(`DELETE FROM ${table} WHERE id = $1`, [scenario.id])
        return { ...scenario, remaining: spent.remaining }
      }
      return null
    },
    list: all,
    async clear(email) {
      const wanted = email?.trim().toLowerCase()
      const gone =
        wanted === undefined
          ? await sql.query(`DELETE FROM ${table} RETURNING 1`)
          : await sql.query(`DELETE FROM ${table} WHERE email = $1 RETURNING 1`, [wanted])
      return gone.length
    },
  }
}

/**
 * The mailbox as a table, the newest `max` mails kept, codes included: development only (compose/state-store.ts
 * gives production a mailbox in each process, so the database never holds a code in clear).
 */
export function createSqlMailbox(
  client: SqlClient,
  clock: Clock,
  options: { schema?: string | undefined; max: number },
): Mailbox {
  const sql = withTextEscapes(client)
  const table = qualified('mails', options.schema)
  const insert = async (mails: readonly Mail[]) => {
    for (const mail of mails)
      await sql.query(`INSERT INTO ${table} (to_address, body) VALUES ($1, $2::jsonb)`, [
        mail.to,
        JSON.stringify(mail),
      ])
    await sql.query(
      `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
      [options.max],
    )
  }
  const read = async (text: string, params: readonly unknown[] = []) =>
    (await sql.query<{ body: Mail }>(text, params)).map((row) => row.body)
  return {
    send: (mail) => insert([{ ...mail, sent_at: new Date(clock.now()).toISOString() }]),
    list: (email) =>
      email === undefined
        ? read(`SELECT body FROM ${table} ORDER BY seq`)
        : read(`SELECT body FROM ${table} WHERE to_address = $1 ORDER BY seq`, [email.trim().toLowerCase()]),
    snapshot: () => read(`SELECT body FROM ${table} ORDER BY seq`),
    async restore(mails) {
      await sql.query(`DELETE FROM ${table}`)
      await insert(mails.slice(-options.max))
    },
    clear: async () => void (await sql.query(`DELETE FROM ${table}`)),
  }
}
