// The product's external sign-in as a browser goes through it, for the contract suite. In process the server gets
// PUBLIC_ORIGIN as its origin, since supertest uses a new port for each request, and plays the provider itself. A
// target is its own origin; its provider is the mock server's /idp there, or another server (docs/contract-suite.md,
// "External sign-in against a target").
import { expect } from 'vitest'
import { createContractAgent, type ContractAgent } from '#contracts/support/api.ts'
import { getContractTarget, notCheckable, TARGET_URL } from '#contracts/support/target.ts'
import { DECLARED_PUBLIC_ORIGIN } from '#contracts/support/target-settings.ts'

/** The origin the product names as its own to the provider: a target's declared one, else its own URL's. */
export const PUBLIC_ORIGIN = TARGET_URL
  ? (DECLARED_PUBLIC_ORIGIN ?? new URL(TARGET_URL).origin)
  : 'http://127.0.0.1:4010'

/** The client id the mock server's own provider knows the product by; a provider elsewhere knows it by its own. */
const OWN_CLIENT_ID = 'auth-shell'

/** Where the product sent the browser to sign in: its own /idp, or a provider at another origin. */
export interface ProviderPage {
  url: URL
  /** The agent that speaks to the provider: the product's own when it is the provider. */
  agent: ContractAgent
  /** The client id the product must have named there. */
  clientId: string | ReturnType<typeof expect.stringMatching>
}

/**
 * Whether the server checked offers external sign-in: a target's own authorize call says (target-settings.ts); in
 * process a production server has no provider unless a check gives it one.
 */
export async function offersExternalSignIn(): Promise<boolean> {
  if (!TARGET_URL) return false
  return (
    typeof (await getContractTarget().then((target) => target.settings())).values.publicOrigin === 'string'
  )
}

/** Ends a check of a server without external sign-in as not checkable against a target that offers it. */
export async function requireNoExternalSignIn(): Promise<void> {
  if (await offersExternalSignIn())
    notCheckable(
      'needs a server without external sign-in, and the target’s authorize call redirects to a provider',
    )
}

/** The provider a product's authorize redirect (`location`) points at. */
export function providerOf(api: ContractAgent, location: string): ProviderPage {
  const url = new URL(location)
  if (url.origin === PUBLIC_ORIGIN) {
    expect(url.pathname).toBe('/idp/authorize')
    return { url, agent: api, clientId: OWN_CLIENT_ID }
  }
  return { url, agent: createContractAgent(url.origin), clientId: expect.stringMatching(/^\S+$/) }
}

export interface ExternalCallback {
  code: string
  state: string
  /** The `sso` cookie that binds the sign-in to the browser that started it, as a Cookie header. */
  cookie: string
  /** Where the provider sent the browser back. */
  location: URL
}

/** The `name=value` of the `sso` cookie an answer set. */
export function ssoCookieOf(setCookie: string[] | string | undefined): string {
  const cookie = [setCookie ?? []].flat().find((line) => /^(__Host-)?sso=/.test(line))
  if (!cookie) throw new Error('Failed to read the sso cookie: the answer set none.')
  return cookie.split(';')[0]!
}

/** The provider's sign-in page for the product's authorize call; its form's request id and the browser's cookie. */
export async function openIdpForm(
  api: ContractAgent,
  state: string,
  redirect = '/callback',
  browserCookie?: string,
): Promise<{ request: string; cookie: string; html: string; provider: ProviderPage }> {
  const authorize = api.get(
    `/api/auth/external/authorize?state=${state}&redirect_uri=${encodeURIComponent(redirect)}`,
  )
  const start = await (browserCookie ? authorize.set('Cookie', browserCookie) : authorize).expect(302)
  const provider = providerOf(api, start.headers.location!)
  const form = await provider.agent.get(`${provider.url.pathname}${provider.url.search}`)
  const request = /name="request" value="([^"]+)"/.exec(form.text)?.[1]
  // A provider elsewhere is the run's helper, not the target: a form the suite cannot fill says so, never fails.
  if (provider.agent !== api && (form.status !== 200 || !request))
    notCheckable(
      `needs a provider whose sign-in form the suite fills (a mock server's /idp); ${provider.url.origin} answered ${form.status}${request ? '' : ' with no such form'}`,
    )
  expect(form.status).toBe(200)
  if (!request) throw new Error('Failed to read the form: no request id.')
  // A browser that already has the cookie keeps it: the answer sets it again or not at all.
  const cookie = start.headers['set-cookie'] ? ssoCookieOf(start.headers['set-cookie']) : browserCookie!
  return { request, cookie, html: form.text, provider }
}

/**
 * Signs in at the provider as `email` through the product's authorize call, as a browser would.
 * @example const { code, cookie } = await signInAtIdp(server.api, { email, state: STATE })
 */
export async function signInAtIdp(
  api: ContractAgent,
  input: {
    email: string
    name?: string
    state: string
    controlToken?: string | undefined
    redirect?: string
    /** The browser's `sso` cookie, for a second sign-in of the same browser (another tab). */
    cookie?: string
  },
): Promise<ExternalCallback> {
  const { request, cookie, provider } = await openIdpForm(api, input.state, input.redirect, input.cookie)
  const sent = provider.agent
    .post(provider.url.pathname)
    .type('form')
    .send({
      request,
      email: input.email,
      ...(input.name !== undefined && { name: input.name }),
      ...(input.controlToken !== undefined && { control_token: input.controlToken }),
    })
  const back = await sent
  if (provider.agent !== api && back.status === 401)
    notCheckable(
      `needs a provider that signs in whoever the form names; ${provider.url.origin} asks for a control token`,
    )
  expect(back.status).toBe(302)
  const location = new URL(back.headers.location!)
  expect(location.searchParams.get('state')).toBe(input.state)
  return { code: location.searchParams.get('code')!, state: input.state, cookie, location }
}

/**
 * The product's exchange of a callback's code and state, left unsettled so the test states the status.
 * @example await exchangeCallback(server.api, await signInAtIdp(server.api, { email, state: STATE })).expect(200)
 */
export const exchangeCallback = (
  api: ContractAgent,
  { code, state, cookie }: Omit<ExternalCallback, 'location'>,
) => api.post('/api/auth/callback').set('Cookie', cookie).send({ code, state })
