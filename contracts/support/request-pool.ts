// The live values generated requests draw on (contracts/support/request-generator.ts), shared by the
// generated-input and conformance suites.
//
// Against a CONTRACT_TARGET it is made through HTTP only (docs/decisions/016-contract-target.md).
// In-process, set-up steps go straight to the app: through HTTP they would cost seconds of the suite.
import { randomInt } from 'node:crypto'
import {
  bearer,
  PASSWORD,
  sessionCookieOf,
  signUp,
  uniqueEmail,
  type LiveServer,
} from '#contracts/fixtures.ts'
import type { RequestPool } from '#contracts/support/request-generator.ts'
import { TARGET_URL } from '#contracts/support/target.ts'
import { createUser } from '#mock-server/product/domain/users.ts'

/** The mock's seeded addresses (mock-server/src/product/domain/seed.ts), which the pool guesses at besides its own. */
const SEED_EMAILS = ['ada@example.com', 'alan@example.com', 'grace@example.com']

/** A verified account, signed in: the pool's first address. */
interface PoolAccount {
  email: string
  password: string
  token: string
  refreshToken: string
  cookie: string
  /** The ids of its process steps. */
  stepIds: string[]
}

/** The steps that reach the server's insides: through /__mock against a target, on the app in-process. */
interface PoolControl {
  reset(): Promise<void>
  createAccount(): Promise<PoolAccount>
  serveBuild(id: string): Promise<void>
  /** The mails sent to `email`, oldest first. */
  mailsTo(email: string): Promise<readonly { purpose: string; code?: string }[]>
  /** Gives the mock's OpenID provider an account for `email`. */
  addIdpAccount(email: string): Promise<void>
}

/**
 * A target without /__mock (a production server) has nothing to reset and no build or provider to steer: the pool is
 * made of a fresh account, and its codes come from the mail the target sent (contracts/support/code-source.ts).
 */
function controlOfProduction(live: LiveServer): PoolControl {
  const overHttp = controlOverHttp(live)
  return {
    ...overHttp,
    reset: async () => undefined,
    serveBuild: async () => undefined,
    async mailsTo(email) {
      const codes = await Promise.all(
        (['login', 'reset'] as const).map(async (purpose) => ({
          purpose,
          code: await live.mock.latestCode(email, purpose),
        })),
      )
      return codes
    },
    addIdpAccount: async () => undefined,
  }
}

function controlOverHttp(live: LiveServer): PoolControl {
  return {
    reset: async () => void (await live.mock.reset()),
    async createAccount() {
      const account = await signUp(live.api, 'generated')
      const process = await live.api.get('/api/process').set(bearer(account.token)).expect(200)
      const steps = (process.body as { steps: { id: string }[] }).steps
      return { ...account, stepIds: steps.map((step) => step.id) }
    },
    serveBuild: async (id) => void (await live.mock.serveBuild(id)),
    mailsTo: (email) => live.mock.mailbox(email),
    addIdpAccount: async (email) =>
      void (await live.api.post('/__mock/idp/accounts').send({ email, name: 'Generated' }).expect(201)),
  }
}

function controlInProcess(live: LiveServer): PoolControl {
  const { ops } = live.app.core
  return {
    reset: () => ops.reset(),
    async createAccount() {
      const email = `generated-${randomInt(1e9)}@example.test`
      const user = await createUser(ops.domain, {
        email,
        name: 'Generated',
        password: PASSWORD,
        verified: true,
      })
      const res = await postJson(live, '/api/auth/login', { email, password: PASSWORD })
      if (res.status !== 200) throw new Error(`Failed to sign the pool's account in: ${res.status}.`)
      const body = (await res.json()) as { token: string; refresh_token: string }
      const steps = await ops.domain.store.steps.list(user.id)
      return {
        email,
        password: PASSWORD,
        token: body.token,
        refreshToken: body.refresh_token,
        cookie: sessionCookieOf(res.headers.getSetCookie()),
        stepIds: steps.map((step) => step.id),
      }
    },
    serveBuild: async (id) => void (ops.build.override = { id, timestamp: ops.clock.now() }),
    mailsTo: async (email) => ops.mailbox.list(email),
    addIdpAccount: async (email) => void (await ops.idp?.accounts.put(email, 'Generated')),
  }
}

/**
 * An external sign-in code for `email`, got as a browser gets it.
 * None when external sign-in goes to a provider other than the mock's /idp.
 */
async function externalCode(
  live: LiveServer,
  control: PoolControl,
  email: string,
): Promise<{ external?: RequestPool['external'] }> {
  const state = `pool-state-${randomInt(1e9)}-0123456789`
  const [start] = await Promise.all([
    fetch(`${live.origin}/api/auth/external/authorize?state=${state}`, { redirect: 'manual' }),
    control.addIdpAccount(email),
  ])
  await start.body?.cancel()
  const authorize = new URL(start.headers.get('location') ?? '/', live.origin)
  if (start.status !== 302 || authorize.origin !== live.origin || !authorize.pathname.startsWith('/idp/'))
    return {}
  authorize.searchParams.set('prompt', 'none')
  authorize.searchParams.set('login_hint', email)
  // The provider asks a scripted client for the control token, as /__mock does.
  const back = await fetch(authorize, { redirect: 'manual', headers: live.controlHeaders })
  await back.body?.cancel()
  const code = new URL(back.headers.get('location') ?? '/', live.origin).searchParams.get('code')
  const cookie = start.headers.getSetCookie()[0]?.split(';')[0]
  if (back.status !== 302 || !code || !cookie)
    throw new Error(`Failed to get an external code: ${back.status}.`)
  return { external: { code, state, cookie } }
}

/**
 * A product call with `fetch`, so the pool's calls are not judged as the suite's.
 */
function postJson(live: LiveServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${live.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** Mails `email` a login code and a reset code, as its owner asks for them, and reads them. */
async function mailedCodes(live: LiveServer, control: PoolControl, email: string): Promise<string[]> {
  const sent = await Promise.all([
    postJson(live, '/api/auth/otp/send', { email, purpose: 'login' }),
    postJson(live, '/api/auth/forgot', { email }),
  ])
  for (const answer of sent) {
    await answer.body?.cancel()
    if (answer.status !== 202) throw new Error(`Failed to mail the pool a code: ${answer.status}.`)
  }
  const mails = await control.mailsTo(email)
  return (['login', 'reset'] as const).flatMap(
    (purpose) => mails.findLast((mail) => mail.purpose === purpose)?.code ?? [],
  )
}

/**
 * Resets `live` to its seed and returns a fresh pool for it.
 * @example const pool = await resetWithPool(live) // pool.accessToken signs in pool.emails[0]
 */
export async function resetWithPool(live: LiveServer): Promise<RequestPool> {
  const production = TARGET_URL !== null && live.api.noControl !== undefined
  const control = !TARGET_URL
    ? controlInProcess(live)
    : production
      ? controlOfProduction(live)
      : controlOverHttp(live)
  await control.reset()
  const account = await control.createAccount()
  const buildId = `build-${randomInt(1e9)}`
  const [codes, external] = await Promise.all([
    mailedCodes(live, control, account.email),
    externalCode(live, control, account.email),
    control.serveBuild(buildId),
  ])
  return {
    ...external,
    // The seeded accounts where the server has them. A production target has none: its pool guesses at addresses of
    // the run's own, so that the run never signs up a seed's address there, which the production checks find unknown.
    emails: [account.email, ...(production ? [1, 2, 3].map(() => uniqueEmail('pool')) : SEED_EMAILS)],
    passwords: [account.password, 'analytical-engine-1843', 'imitation-game-1950', 'password'],
    accessToken: account.token,
    refreshTokens: [account.refreshToken],
    cookie: account.cookie,
    ids: [buildId, ...account.stepIds],
    codes,
  }
}
