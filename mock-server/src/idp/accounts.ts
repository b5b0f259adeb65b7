// The OpenID provider's own accounts: who it can vouch for. The mock provider vouches for any address typed
// into its form (docs/decisions/022-openid-provider.md). Bounded, in memory here or in the shared database
// (compose/sql-idp.ts); the subject comes from the address, so it survives resets and restarts.
import { createHash } from 'node:crypto'
import { normalizeEmail } from '../shared/email.ts'

export interface IdpAccount {
  /** Stable: base64url of SHA-256 over the normalized address, with a prefix of its own. */
  sub: string
  email: string
  name: string
}

export interface IdpAccounts {
  get(email: string): Promise<IdpAccount | null>
  getBySub(sub: string): Promise<IdpAccount | null>
  /** Adds the account, or renames it when a name is given; the name defaults to the address's local part. */
  put(email: string, name?: string): Promise<IdpAccount>
  list(): Promise<IdpAccount[]>
  /** Adds the seed accounts that are missing, renaming none: instances starting on one database each call it. */
  seed(): Promise<void>
  /** Back to the seed. */
  reset(): Promise<void>
}

export function getSubject(email: string): string {
  return createHash('sha256')
    .update(`idp-subject\u0000${normalizeEmail(email)}`)
    .digest('base64url')
}

/**
 * @example
 * const accounts = createIdpAccounts(10_000)
 * await accounts.get('ada@example.com') // { sub: '…', email: 'ada@example.com', name: 'Ada Lovelace' }
 */
export function createIdpAccounts(
  max: number,
  seeds: readonly { email: string; name: string }[] = [],
): IdpAccounts {
  const byEmail = new Map<string, IdpAccount>()
  const bySub = new Map<string, IdpAccount>()
  const put = (email: string, name?: string): IdpAccount => {
    const address = normalizeEmail(email)
    const existing = byEmail.get(address)
    const account = {
      sub: getSubject(address),
      email: address,
      name: name?.trim() || existing?.name || address.split('@')[0]!,
    }
    byEmail.delete(address)
    // Full: the account added longest ago goes (seeds included; a reset brings them back).
    if (byEmail.size >= max) {
      const oldest = byEmail.values().next().value!
      byEmail.delete(oldest.email)
      bySub.delete(oldest.sub)
    }
    byEmail.set(address, account)
    bySub.set(account.sub, account)
    return account
  }
  const reset = () => {
    byEmail.clear()
    bySub.clear()
    for (const { email, name } of seeds) put(email, name)
  }
  reset()
  return {
    get: async (email) => byEmail.get(normalizeEmail(email)) ?? null,
    getBySub: async (sub) => bySub.get(sub) ?? null,
    put: async (email, name) => put(email, name),
    list: async () => [...byEmail.values()],
    async seed() {
      for (const { email, name } of seeds) if (!byEmail.has(normalizeEmail(email))) put(email, name)
    },
    reset: async () => reset(),
  }
}
