// The one-time codes of the identity provider the mock server plays (/idp): issued to whoever its form names, bound
// to the app's `state`, stored hashed, good once and for EXTERNAL_CODE_TTL_MS, and handed back on the app's
// redirect_uri. Every rule of these codes is here; the provider (external-sign-in.ts) issues and redeems them for
// the operations, and purge.ts sweeps the spent ones. No HTTP here.
import { EXTERNAL_CODE_TTL_MS } from '../constants.ts'
import { normalizeEmail, type DomainContext } from './context.ts'
import { createId, createRandomToken, hashToken, safeEqual } from './crypto.ts'
import type { ExternalIdentity } from './external-sign-in.ts'

/**
 * A new code for whoever the form named (the name defaults to the address's local part).
 * @example
 * const code = await issueExternalCode(domain, { email: 'sso@example.com', state })
 */
export async function issueExternalCode(
  domain: DomainContext,
  { email, name, state }: { email: string; name?: string; state: string },
): Promise<string> {
  const code = createRandomToken()
  const address = normalizeEmail(email)
  await domain.store.externalCodes.create({
    id: createId(),
    hash: hashToken(code),
    state,
    email: address,
    name: name?.trim() || address.split('@')[0]!,
    expiresAt: domain.clock.now() + EXTERNAL_CODE_TTL_MS,
    usedAt: null,
  })
  return code
}

/**
 * Who a code vouches for, once: null for an unknown, used or expired code, or one bound to another state. Two
 * redemptions of one code never both succeed (one lock a code).
 */
export function redeemExternalCode(
  domain: DomainContext,
  { code, state }: { code: string; state: string },
): Promise<ExternalIdentity | null> {
  const hash = hashToken(code)
  return domain.locks.run(`external:${hash}`, async () => {
    const record = domain.store.externalCodes.findFirst((q) => q.where({ hash }))
    const now = domain.clock.now()
    if (!record || record.usedAt !== null || record.expiresAt <= now || !safeEqual(record.state, state))
      return null
    await domain.store.externalCodes.update(record, { data: (draft) => void (draft.usedAt = now) })
    return { email: record.email, name: record.name }
  })
}

/**
 * Where the provider sends the browser back: the app's redirect_uri (a path on its site) with the code and state
 * added to its query, which it keeps; never glued after a second `?`.
 * @example addCodeToRedirect('/callback?from=sso', { code, state }) // '/callback?from=sso&code=…&state=…'
 */
export function addCodeToRedirect(
  redirectUri: string,
  { code, state }: { code: string; state: string },
): string {
  const target = new URL(redirectUri, 'http://site.invalid')
  target.searchParams.set('code', code)
  target.searchParams.set('state', state)
  return `${target.pathname}${target.search}`
}
