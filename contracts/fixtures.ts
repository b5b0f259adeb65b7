// Fixtures of the contract suite: the test server (contracts/support/test-server.ts), accounts and small helpers.
// The control surface goes through the one mock client (api/mock-client.ts).
import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { signUpVerified } from '#harness/accounts.ts'
import { fetchThrough, type ContractAgent } from '#contracts/support/api.ts'
import { AGENT_ORIGIN, mockOf, requireCodes, type TestServer } from '#contracts/support/test-server.ts'
import { countTargetRequest, TARGET_URL } from '#contracts/support/target.ts'
import type { components } from '#api/openapi.gen.ts'
import type { ArmRequest, MailPurpose } from '#api/mock-client.ts'

export {
  createTestServer,
  mockOf,
  requireCodes,
  requireControl,
  requireOwnServer,
  serverWith,
  startLiveServer,
  TEST_APP_OPTIONS,
  useTestServer,
  type LiveServer,
  type TestServer,
} from '#contracts/support/test-server.ts'
export { limitedServer, type LimitedServer } from '#contracts/support/rate-limits.ts'

export const PASSWORD = 'a long enough passphrase'

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`
}

/** The newest code mailed to `email` for `purpose`, read through the control surface. */
export const readCode = (
  api: ContractAgent,
  email: string,
  purpose: MailPurpose = 'signup',
): Promise<string> => mockOf(api).latestCode(email, purpose)

/** Recovers the password of `email` as its owner would: forgot, the mailed code, then the new password. */
export async function resetPassword(api: ContractAgent, email: string, password: string): Promise<void> {
  requireCodes(api)
  await api.post('/api/auth/forgot').send({ email }).expect(202)
  const code = await readCode(api, email, 'reset')
  const verified = await api.post('/api/auth/otp/verify').send({ email, code, purpose: 'reset' }).expect(200)
  await api
    .post('/api/auth/update_password')
    .send({ reset_token: verified.body.reset_token, password })
    .expect(200)
}

export interface SignedIn {
  email: string
  password: string
  token: string
  refreshToken: string
  serviceToken: string
  cookie: string
  user: components['schemas']['User']
}

export function sessionCookieOf(setCookie: string[] | string | undefined): string {
  const first = ([] as string[]).concat(setCookie ?? []).find((cookie) => /^(__Host-)?sid=/.test(cookie))
  if (!first) throw new Error('Failed to read the session cookie: none was set.')
  return first.split(';')[0]!
}

/** The account as a signed-in answer (sign-up's verification or a sign-in) gives it. */
function signedIn(
  email: string,
  password: string,
  body: components['schemas']['SignedInBody'],
  setCookie: string[] | string | undefined,
): SignedIn {
  if (!('id' in body.user)) throw new Error('Failed to read the user: the answer has the legacy field names.')
  return {
    email,
    password,
    token: body.token,
    refreshToken: body.refresh_token,
    serviceToken: body.service_token,
    cookie: sessionCookieOf(setCookie),
    user: body.user,
  }
}

/** Signs up through the API, verifies with the mailed code, and returns the signed-in account. */
export async function signUp(api: ContractAgent, label = 'user', password = PASSWORD): Promise<SignedIn> {
  requireCodes(api)
  const email = uniqueEmail(label)
  const { body, response } = await signUpVerified(
    { baseUrl: AGENT_ORIGIN, fetch: fetchThrough(api), mock: mockOf(api) },
    { name: 'Test Learner', email, password },
  )
  return signedIn(email, password, body, response.headers.getSetCookie())
}

/** Signs in with the password. */
export async function signIn(api: ContractAgent, email: string, password: string): Promise<SignedIn> {
  const res = await api.post('/api/auth/login').send({ email, password }).expect(200)
  return signedIn(email, password, res.body, res.headers['set-cookie'])
}

/** A sign-in call, unsettled, so the test states the status it expects. */
export const login = (server: TestServer, email: string, password: string) =>
  server.api.post('/api/auth/login').send({ email, password })

/** A refresh call, unsettled, so the test states the status it expects. */
export const refresh = (api: ContractAgent, refreshToken: string) =>
  api.post('/api/refresh_token').send({ refresh_token: refreshToken })

export async function advanceClock(api: ContractAgent, ms: number): Promise<void> {
  await mockOf(api).advanceClock(ms)
}

export async function arm(api: ContractAgent, scenario: ArmRequest): Promise<void> {
  await mockOf(api).arm(scenario)
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/**
 * A JSON write refuses a body off its schema (400), of another media type (415) or over its limit (413).
 * @example await expectMalformedRefused(api, '/api/auth/forgot', { invalid: { email: 'nope' }, oversized: { email: 'x'.repeat(17_000) } })
 */
export async function expectMalformedRefused(
  api: ContractAgent,
  path: string,
  bodies: { invalid: object; oversized: object },
): Promise<void> {
  await api.post(path).send(bodies.invalid).expect(400)
  await api.post(path).set('Content-Type', 'text/plain').send('x').expect(415)
  await api.post(path).send(bodies.oversized).expect(413)
}

/**
 * A request outside what the documents serve (a preflight, a path of no operation), so not through the validating
 * agent: to the target, or to the in-process app.
 * @example await unvalidated(server).options('/api/auth/login').set('Origin', APP).expect(204)
 */
export function unvalidated(server: TestServer) {
  if (!TARGET_URL) return request(server.app)
  countTargetRequest()
  return request(TARGET_URL)
}
