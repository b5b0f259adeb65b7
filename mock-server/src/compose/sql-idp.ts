// The identity provider's accounts, registered clients and signing key in the SQL database every instance shares
// (docs/mock-server.md, "Where the state lives"): an account added or a client registered through one instance
// signs in through any, and an ID token signed by one is verified with the JWKS another serves. Tables: migration 5
// of product/storage/migrations.ts. The product's own client stays in each process: its relying party reaches the
// provider of its own process (external-sign-in/in-process-fetch.ts), so its secret never needs sharing.
import type { JWK } from 'jose'
import { getSubject, type IdpAccount, type IdpAccounts } from '../idp/accounts.ts'
import {
  createProductClient,
  newClient,
  PRODUCT_CLIENT_ID,
  type IdpClient,
  type IdpClients,
} from '../idp/clients.ts'
import { withTextEscapes } from '../product/storage/sql-text.ts'
import { normalizeEmail } from '../shared/email.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import { keepWithin } from './sql-bounded.ts'

type Seeds = readonly { email: string; name: string }[]

/**
 * @example
 * const accounts = createSqlIdpAccounts(client, { schema, max: IDP_MAX_ENTRIES, seeds })
 * await accounts.put('ada@example.com') // the same account on every instance
 */
export function createSqlIdpAccounts(
  client: SqlClient,
  options: { schema?: string | undefined; max: number; seeds: Seeds },
): IdpAccounts {
  const sql = withTextEscapes(client)
  const table = qualified('idp_accounts', options.schema)
  const one = async (where: string, value: string) =>
    (await sql.query<IdpAccount>(`SELECT sub, email, name FROM ${table} WHERE ${where} = $1`, [value]))[0] ??
    null
  // A seed already there is left as it is (renamed, maybe): instances starting on one database each seed.
  const seed = async () => {
    for (const { email, name } of options.seeds) {
      const address = normalizeEmail(email)
      await sql.query(
        `INSERT INTO ${table} (email, sub, name) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`,
        [address, getSubject(address), name],
      )
    }
  }
  return {
    get: (email) => one('email', normalizeEmail(email)),
    getBySub: (sub) => one('sub', sub),
    async put(email, name) {
      const address = normalizeEmail(email)
      // One statement: a rename keeps the name unless one is given, and moves the account to the newest (memory's
      // order, which its cap follows).
      const [row] = await sql.query<IdpAccount & { seq: string }>(
        `INSERT INTO ${table} AS a (email, sub, name) VALUES ($1, $2, COALESCE($3, $4))
         ON CONFLICT (email) DO UPDATE SET name = COALESCE($3, a.name), seq = DEFAULT
         RETURNING seq, sub, email, name`,
        [address, getSubject(address), name?.trim() || null, address.split('@')[0]!],
      )
      const { seq, ...account } = row!
      await keepWithin(sql, table, options.max, seq)
      return account
    },
    list: () => sql.query<IdpAccount>(`SELECT sub, email, name FROM ${table} ORDER BY seq`),
    seed,
    async reset() {
      await sql.query(`DELETE FROM ${table}`)
      await seed()
    },
  }
}

/** The registered clients; a secret is kept only as its SHA-256 hash (shown once, at registration). */
export function createSqlIdpClients(
  client: SqlClient,
  options: { schema?: string | undefined; max: number },
): IdpClients {
  const sql = withTextEscapes(client)
  const table = qualified('idp_clients', options.schema)
  const product = createProductClient()
  return {
    product,
    async get(clientId) {
      if (clientId === PRODUCT_CLIENT_ID) return product
      const [row] = await sql.query<{ secret_hash: string | null; redirect_uris: string[] }>(
        `SELECT secret_hash, redirect_uris FROM ${table} WHERE client_id = $1`,
        [clientId],
      )
      if (!row) return null
      const found: IdpClient = { client_id: clientId, redirect_uris: row.redirect_uris }
      return row.secret_hash === null ? found : { ...found, client_secret_hash: row.secret_hash }
    },
    async register(input) {
      const made = newClient(input)
      const [row] = await sql.query<{ seq: string }>(
        `INSERT INTO ${table} (client_id, secret_hash, redirect_uris) VALUES ($1, $2, $3::jsonb) RETURNING seq`,
        [made.client_id, made.client_secret_hash ?? null, JSON.stringify(made.redirect_uris)],
      )
      await keepWithin(sql, table, options.max, row!.seq)
      return made
    },
    reset: async () => void (await sql.query(`DELETE FROM ${table}`)),
  }
}

/**
 * The provider's signing key every instance signs with: the first instance's, stored beside the token secret in
 * server_meta (as sensitive, and as readable to whoever reads that table; the provider is off in production).
 */
export function shareSigningKey(client: SqlClient, schema?: string): (generated: JWK) => Promise<JWK> {
  const table = qualified('server_meta', schema)
  return async (generated) => {
    await client.query(
      `INSERT INTO ${table} (key, value) VALUES ('idp_signing_key', $1::jsonb) ON CONFLICT (key) DO NOTHING`,
      [JSON.stringify(generated)],
    )
    const [row] = await client.query<{ value: JWK }>(
      `SELECT value FROM ${table} WHERE key = 'idp_signing_key'`,
    )
    return row!.value
  }
}
