// The OpenID provider's own accounts: who it can vouch for. The mock provider vouches for any address typed
// into its form (docs/decisions/022-openid-provider.md). In memory and bounded; the subject comes from the address,
// so it survives resets and restarts.
import { createHash } from 'node:crypto'
import { normalizeEmail } from '../shared/email.ts'

export interface IdpAccount {
  /** Stable: base64url of SHA-256 over the normalized address, with a prefix of its own. */
  sub: string
  email: string
  name: string
}

export interface IdpAccounts {
  get(email: string): IdpAccount | null
  getBySub(sub: string): IdpAccount | null
  /** Adds the account, or renames it when a name is given; the name defaults to the address's local part. */
  put(email: string, name?: string): IdpAccount
  list(): IdpAccount[]
  /** Back to the seed. */
  reset(): void
}

export function getSubject(email: string): string {
  return createHash('sha256')
    .update(`idp-subject\u0000${normalizeEmail(email)}`)
    .digest('base64url')
}

/**
 * @example
 * const accounts = createIdpAccounts(10_000)
 * accounts.get('ada@example.com') // { sub: '…', email: 'ada@example.com', name: 'Ada Lovelace' }
 */
export function createIdpAccounts(
  max: number,
  seeds: readonly { email: string; name: string }[] = [],
): IdpAccounts {
  const byEmail = new Map<string, IdpAccount>()
  const bySub = new Map<string, IdpAccount>()
  const accounts: IdpAccounts = {
    get: (email) => byEmail.get(normalizeEmail(email)) ?? null,
    getBySub: (sub) => bySub.get(sub) ?? null,
    put(email, name) {
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
    },
    list: () => [...byEmail.values()],
    reset() {
      byEmail.clear()
      bySub.clear()
      for (const { email, name } of seeds) accounts.put(email, name)
    },
  }
  accounts.reset()
  return accounts
}
