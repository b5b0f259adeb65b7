// The live values generated requests draw on (contracts/request-generator.ts): a server reset to its seed, one
// verified account signed in, a code of each purpose mailed to it, and a served build. Shared by the generated-input
// and conformance suites, which start each batch of requests from it.
import { randomInt } from 'node:crypto'
import { PASSWORD, type LiveServer } from '#contracts/fixtures.ts'
import type { RequestPool } from '#contracts/request-generator.ts'
import { createUser } from '#mock-server/domain/users.ts'

async function postJson(live: LiveServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${live.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/**
 * An external sign-in code for `email`, as a browser gets it: the product's authorize call (its `sso` cookie), then
 * the mock's OpenID provider with prompt=none and the address as login_hint (an account the provider is given here).
 */
async function externalCode(
  live: LiveServer,
  email: string,
): Promise<{ external?: RequestPool['external'] }> {
  const { idp } = live.app.core.ops
  if (!live.app.core.externalSignIn || !idp) return {}
  idp.accounts.put(email, 'Generated')
  const state = `pool-state-${randomInt(1e9)}-0123456789`
  const start = await fetch(`${live.origin}/api/auth/external/authorize?state=${state}`, {
    redirect: 'manual',
  })
  const authorize = new URL(start.headers.get('location') ?? '/', live.origin)
  authorize.searchParams.set('prompt', 'none')
  authorize.searchParams.set('login_hint', email)
  const back = await fetch(authorize, { redirect: 'manual' })
  const code = new URL(back.headers.get('location') ?? '/', live.origin).searchParams.get('code')
  const cookie = start.headers.getSetCookie()[0]?.split(';')[0]
  if (back.status !== 302 || !code || !cookie)
    throw new Error(`Failed to get an external code: ${back.status}.`)
  return { external: { code, state, cookie } }
}

/**
 * Resets `live` to its seed and returns a fresh pool for it.
 * @example const pool = await resetWithPool(live) // pool.accessToken signs in pool.emails[0]
 */
export async function resetWithPool(live: LiveServer): Promise<RequestPool> {
  const { ops } = live.app.core
  await ops.reset()
  const email = `generated-${randomInt(1e9)}@example.test`
  const user = await createUser(ops.domain, { email, name: 'Generated', password: PASSWORD, verified: true })
  const res = await postJson(live, '/api/auth/login', { email, password: PASSWORD })
  if (res.status !== 200) throw new Error(`Failed to sign the pool's account in: ${res.status}.`)
  const body = (await res.json()) as { token: string; refresh_token: string }
  const build = { id: `build-${randomInt(1e9)}`, timestamp: ops.clock.now() }
  ops.build.override = build
  const codes: string[] = []
  for (const [path, purpose, sendBody] of [
    ['/api/auth/otp/send', 'login', { email, purpose: 'login' }],
    ['/api/auth/forgot', 'reset', { email }],
  ] as const) {
    const sent = await postJson(live, path, sendBody)
    if (sent.status !== 202) throw new Error(`Failed to mail the pool a ${purpose} code: ${sent.status}.`)
    const code = ops.mailbox.list(email).find((mail) => mail.purpose === purpose)?.code
    if (code) codes.push(code)
  }
  return {
    ...(await externalCode(live, email)),
    emails: [email, 'ada@example.com', 'alan@example.com', 'grace@example.com'],
    passwords: [PASSWORD, 'analytical-engine-1843', 'imitation-game-1950', 'password'],
    accessToken: body.token,
    refreshTokens: [body.refresh_token],
    cookie: res.headers.getSetCookie()[0]!.split(';')[0]!,
    ids: [
      build.id,
      ...ops.domain.store.steps.findMany((q) => q.where({ userId: user.id })).map((step) => step.id),
    ],
    codes,
  }
}
