/**
 * A verified account made as a person makes one (docs/behaviour.md: Sign-up): sign up through the product API,
 * read the mailed code through the control surface, verify it. One helper for the contract and e2e suites, each
 * with its own network (`fetch`). Browser-safe, like the mock client.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from '#api/openapi.gen.ts'
import type { MockClient } from '#api/mock-client.ts'

export type SignupRequest = components['schemas']['SignupRequest']
export type SignedInBody = components['schemas']['SignedInBody']

export interface SignUpVerifiedOptions {
  /** The product API's origin, e.g. http://127.0.0.1:4010. */
  baseUrl: string
  /** The network (default: the global fetch). */
  fetch?: (input: Request) => Promise<Response>
  /** Reads the mailed code. */
  mock: Pick<MockClient, 'latestCode'>
}

/**
 * Signs `account` up, verifies it with the mailed code, and returns the signed-in answer.
 * Throws unless the server answers 202, then 200.
 * @example const { body } = await signUpVerified({ baseUrl, mock }, { name: 'Ada', email, password })
 */
export async function signUpVerified(
  { baseUrl, fetch, mock }: SignUpVerifiedOptions,
  account: SignupRequest,
): Promise<{ body: SignedInBody; response: Response }> {
  const api = createClient<paths>({ baseUrl, ...(fetch && { fetch }) })
  const signup = await api.POST('/api/auth/signup', { body: account })
  if (signup.response.status !== 202)
    throw new Error(`Failed to sign up ${account.email}: ${describeAnswer(signup.response, signup.error)}`)
  const code = await mock.latestCode(account.email, 'signup')
  const verified = await api.POST('/api/auth/otp/verify', {
    body: { email: account.email, code, purpose: 'signup' },
  })
  if (verified.response.status !== 200 || !verified.data || !('token' in verified.data))
    throw new Error(`Failed to verify ${account.email}: ${describeAnswer(verified.response, verified.error)}`)
  return { body: verified.data, response: verified.response }
}

const describeAnswer = (response: Response, error: unknown) =>
  `answered ${response.status} ${JSON.stringify(error) ?? ''}`.trim()
