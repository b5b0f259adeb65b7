// GET /__mock/state's snapshot: every collection, with each secret as its fingerprint and nothing else changed.
import { createHash } from 'node:crypto'
import { expect, test } from 'vitest'
import { createMockCore } from '../core.ts'
import { writeCode, issueResetToken } from '../product/domain/codes.ts'
import { createSession } from '../product/domain/sessions.ts'
import { issueRefreshToken, rotateRefreshToken } from '../product/domain/tokens.ts'
import { createUser } from '../product/domain/users.ts'
import { fingerprint, readMockState } from './state.ts'

async function coreWithEverySecret() {
  const core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await core.ready
  const { domain } = core.ops
  const user = await createUser(domain, {
    email: 'state@example.test',
    name: 'S',
    password: 'pass phrase 1',
    verified: true,
  })
  const { session } = await createSession(domain, user.id)
  const refreshToken = await issueRefreshToken(domain, session.id)
  const rotated = await rotateRefreshToken(domain, refreshToken)
  expect(rotated).toMatchObject({ ok: true })
  const passwordHash = await domain.hasher.hash('pass phrase 2')
  await writeCode(domain, 'state@example.test', 'signup', { name: 'S', passwordHash })
  await issueResetToken(domain, user.id)
  domain.guesses.record('zed@example.test', 'login', 1)
  domain.guesses.record('amy@example.test', 'reset', 2)
  return core
}

test('each hash or sealed secret is its fingerprint; every other field is as stored', async () => {
  const core = await coreWithEverySecret()
  const { store } = core.ops.domain
  const state = readMockState(core.ops)
  const stored = JSON.parse(
    JSON.stringify({
      users: store.users.all(),
      sessions: store.sessions.all(),
      refreshTokens: store.refreshTokens.all(),
      codes: store.codes.all(),
      resetTokens: store.resetTokens.all(),
      steps: store.steps.all(),
    }),
  ) as Record<string, Record<string, unknown>[]>
  const secrets = {
    users: ['passwordHash'],
    sessions: ['cookieHash', 'serviceTokenHash'],
    refreshTokens: ['hash', 'graceBox'],
    codes: ['hash'],
    resetTokens: ['hash'],
    steps: [],
  } as Record<string, string[]>
  const fromSecrets: string[] = []
  const expected = Object.fromEntries(
    Object.entries(stored).map(([name, records]) => [
      name,
      records.map((record) => {
        const out = { ...record }
        for (const field of secrets[name]!) {
          if (typeof record[field] === 'string') fromSecrets.push(record[field] as string)
          out[field] = typeof record[field] === 'string' ? fingerprint(record[field] as string) : null
        }
        const signup = record.signup as { name: string; passwordHash: string } | null | undefined
        if (signup) {
          fromSecrets.push(signup.passwordHash)
          out.signup = { name: signup.name, passwordHash: fingerprint(signup.passwordHash) }
        }
        return out
      }),
    ]),
  )
  expect(state.store).toEqual(expected)
  // Every kind of secret was there to hide: a grace box, a sign-up's password, and so on.
  expect(state.store.refreshTokens.some((token) => token.graceBox !== null)).toBe(true)
  expect(state.store.codes.some((code) => code.signup !== null)).toBe(true)
  expect(state.store.resetTokens).toHaveLength(1)
  const text = JSON.stringify(state)
  for (const secret of fromSecrets) expect(text).not.toContain(secret)
  expect(text).not.toContain('$argon2')
})

test('the fingerprint is the first 16 hex digits of the SHA-256; the rest of the state as the pieces give it', async () => {
  expect(fingerprint('abc')).toBe(createHash('sha256').update('abc').digest('hex').slice(0, 16))
  const core = await coreWithEverySecret()
  core.clock.advance(5_000)
  core.ops.scenarios.arm({ name: 'latency', delay_ms: 1 })
  core.ops.mailbox.send({ to: 'state@example.test', subject: 'Code', purpose: 'login', code: '123456' })
  const state = readMockState(core.ops)
  expect(state.guesses).toEqual([
    { key: 'login:zed@example.test', times: [1] },
    { key: 'reset:amy@example.test', times: [2] },
  ])
  expect(state.mails).toEqual(core.ops.mailbox.snapshot())
  expect(state.scenarios).toEqual(core.ops.scenarios.list())
  expect(state.clock).toEqual({ offset_ms: core.clock.offsetMs() })
  expect(state.clock.offset_ms).toBeGreaterThanOrEqual(5_000)
})
