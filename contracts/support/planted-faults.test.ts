// Tests of the contract suite itself: an in-process server whose answers are rewritten as a faulty backend would
// send them, driven by the suite's own agent and fixtures. Each planted fault must fail the contract check it meets
// (docs/contract-suite.md, "What a safe answer is": a backend that drops HttpOnly or SameSite, or leaves the
// cookie after log-out, fails the run).
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http'
import { describe, expect, test } from 'vitest'
import { createApp } from '#mock-server/app.ts'
import { createContractAgent, type ContractAgent } from '#contracts/support/api.ts'
import { signUp } from '#contracts/fixtures.ts'
import { TEST_APP_OPTIONS } from '#contracts/support/test-server.ts'

/** Rewrites the Set-Cookie values of an answer; returning undefined drops the header. */
type CookieRewrite = (request: IncomingMessage, cookies: string[]) => string[] | undefined

/** The app's listener with every answer's Set-Cookie rewritten just before its head is written. */
function withCookieRewrite(app: RequestListener, rewrite: CookieRewrite): RequestListener {
  return (request, response) => {
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse
    response.writeHead = ((status: number, ...rest: unknown[]) => {
      const headers = rest.find((arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && arg !== null)
      for (const name of Object.keys(headers ?? {}).filter((n) => n.toLowerCase() === 'set-cookie')) {
        const rewritten = rewrite(request, [headers![name]!].flat().map(String))
        if (rewritten === undefined) delete headers![name]
        else headers![name] = rewritten
      }
      return writeHead(status, ...rest)
    }) as ServerResponse['writeHead']
    app(request, response)
  }
}

async function agentOver(rewrite: CookieRewrite | null): Promise<ContractAgent> {
  const app = createApp(TEST_APP_OPTIONS)
  await app.core.ready
  return createContractAgent(rewrite ? withCookieRewrite(app, rewrite) : app)
}

const without =
  (attribute: RegExp): CookieRewrite =>
  (_request, cookies) =>
    cookies.map((cookie) => cookie.replace(attribute, ''))

const isLogOut = (request: IncomingMessage) =>
  request.method === 'DELETE' && request.url?.startsWith('/api/_auth/session') === true

/** The session contract's log-out check: sign up, then log out with the cookie (session.contract.test.ts). */
async function logOut(api: ContractAgent): Promise<void> {
  const account = await signUp(api)
  await api.delete('/api/_auth/session').set('Cookie', account.cookie).expect(200)
}

describe('the contract suite fails a backend with a planted cookie fault', () => {
  test('the unchanged server passes the sign-up and the log-out', async () => {
    await expect(logOut(await agentOver(null))).resolves.toBeUndefined()
  })

  test('(a) a session cookie without HttpOnly fails at the first sign-in', async () => {
    const api = await agentOver(without(/;\s*HttpOnly/i))
    await expect(signUp(api)).rejects.toThrow(
      /POST \/api\/auth\/otp\/verify → 200 does not match api\/openapi\.yaml \(verifyOtp, response 200\):\n {2}- header Set-Cookie of verifyOtp 200: cookie sid \(sid=…; Path=\/; SameSite=Lax; Max-Age=\d+\) lacks HttpOnly/,
    )
  })

  test('(b) a session cookie without SameSite fails at the first sign-in', async () => {
    const api = await agentOver(without(/;\s*SameSite=[^;]*/i))
    await expect(signUp(api)).rejects.toThrow(
      /header Set-Cookie of verifyOtp 200: cookie sid \(sid=…; Path=\/; HttpOnly; Max-Age=\d+\) lacks SameSite/,
    )
  })

  test('(c) a log-out that answers as usual but leaves the session cookie fails the log-out check', async () => {
    const api = await agentOver((request, cookies) => (isLogOut(request) ? undefined : cookies))
    await expect(logOut(api)).rejects.toThrow(
      'DELETE /api/_auth/session → 200 does not match api/openapi.yaml (deleteSession, response 200):\n' +
        '  - header Set-Cookie of deleteSession 200: required but missing (the answer ends a session, so it must expire the session cookie)',
    )
  })
})
