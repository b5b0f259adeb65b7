// External sign-in's identity provider, as the operations see it: where to send the browser, and who a code
// vouches for. The mock server plays one (/idp, createMockIdentityProvider) outside production mode; a real
// OpenID provider can be plugged in through createApp({ externalSignIn }); production mode has none by default,
// so no one signs in as whatever address they type (docs/security/surface.md). No HTTP here.
import { EXTERNAL_CODE_TTL_MS } from '../constants.ts'
import type { DomainContext } from './context.ts'
import { normalizeEmail } from './context.ts'
import { createId, createRandomToken, hashToken, safeEqual } from './crypto.ts'

export interface ExternalIdentity {
  email: string
  name: string
}

export interface ExternalSignInProvider {
  /** Where the browser goes to sign in; the provider sends it back to `redirectUri` with `code` and `state`. */
  authorizeUrl(input: { state: string; redirectUri: string }): string
  /** Who the provider vouches for, once per code; null for an unknown, used or expired code, or another state. */
  exchange(input: { code: string; state: string }): Promise<ExternalIdentity | null>
}

export interface MockIdentityProvider extends ExternalSignInProvider {
  /** The mock provider's sign-in form was submitted: a one-time code for whoever was typed. */
  issueCode(input: { email: string; name?: string; state: string }): Promise<string>
}

/**
 * The identity provider the mock server plays (/idp): it vouches for whatever address its form is given.
 * @example
 * const idp = createMockIdentityProvider(domain)
 * const code = await idp.issueCode({ email: 'sso@example.com', state })
 * await idp.exchange({ code, state }) // { email: 'sso@example.com', name: 'sso' }, then null
 */
export function createMockIdentityProvider(domain: DomainContext): MockIdentityProvider {
  return {
    authorizeUrl: ({ state, redirectUri }) =>
      `/idp/authorize?${new URLSearchParams({ state, redirect_uri: redirectUri })}`,
    async issueCode({ email, name, state }) {
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
    },
    exchange({ code, state }) {
      const hash = hashToken(code)
      return domain.locks.run(`external:${hash}`, async () => {
        const record = domain.store.externalCodes.findFirst((q) => q.where({ hash }))
        const now = domain.clock.now()
        if (!record || record.usedAt !== null || record.expiresAt <= now || !safeEqual(record.state, state))
          return null
        await domain.store.externalCodes.update(record, { data: (draft) => void (draft.usedAt = now) })
        return { email: record.email, name: record.name }
      })
    },
  }
}
