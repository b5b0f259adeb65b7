// GET /__mock/state's snapshot (control/state.ts) read from a real product store: each secret leaves as its
// fingerprint, every other field as stored, and the control pieces as they are. Here, where the composition meets
// the product's store, because the reader is control's and the records are the product's.
import { expect, test } from 'vitest'
import { createMockCore } from '../core.ts'
import { fingerprint, readMockState } from '../control/state.ts'
import { writeCode, issueResetToken } from '../product/domain/codes.ts'
import { createSession } from '../product/domain/sessions.ts'
import { issueRefreshToken, rotateRefreshToken } from '../product/domain/tokens.ts'
import { createUser } from '../product/domain/users.ts'

const EMAIL = 'state@example.test'

async function coreWithEverySecret() {
  const core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await core.ready
  const { domain } = core.ops
  const user = await createUser(domain, {
    email: EMAIL,
    name: 'S',
    password: 'pass phrase 1',
    verified: true,
  })
  const { session } = await createSession(domain, user.id)
  const refreshToken = await issueRefreshToken(domain, session.id)
  const rotated = await rotateRefreshToken(domain, refreshToken)
  expect(rotated).toMatchObject({ ok: true })
  const passwordHash = await domain.hasher.hash('pass phrase 2')
  await writeCode(domain, EMAIL, 'signup', { name: 'S', passwordHash })
  await issueResetToken(domain, user.id)
  await domain.guesses.record('zed@example.test', 'login', 1)
  await domain.guesses.record('amy@example.test', 'reset', 2)
  return { core, userId: user.id, sessionId: session.id }
}

/** A record as the state shows it: plain JSON, bookkeeping (symbol keys) left out. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

test('each hash or sealed secret is its fingerprint; every other field is as stored', async () => {
  const { core, userId, sessionId } = await coreWithEverySecret()
  const store = await core.ops.domain.store.snapshot()
  const state = await readMockState(core.ops)
  const user = plain(store.users.find((row) => row.id === userId)!)
  expect(state.store.users.find((row) => row.id === userId)).toEqual({
    ...user,
    passwordHash: fingerprint(user.passwordHash),
  })
  const session = plain(store.sessions.find((row) => row.id === sessionId)!)
  expect(state.store.sessions.find((row) => row.id === sessionId)).toEqual({
    ...session,
    cookieHash: fingerprint(session.cookieHash),
    serviceTokenHash: fingerprint(session.serviceTokenHash),
  })
  const tokens = plain(store.refreshTokens.filter((token) => token.sessionId === sessionId))
  const retired = tokens.find((token) => token.graceBox !== null)!
  const current = tokens.find((token) => token.graceBox === null)!
  expect(state.store.refreshTokens).toEqual(
    expect.arrayContaining([
      { ...retired, hash: fingerprint(retired.hash), graceBox: fingerprint(retired.graceBox!) },
      { ...current, hash: fingerprint(current.hash), graceBox: null },
    ]),
  )
  const code = plain(store.codes.find((row) => row.signup !== null)!)
  expect(state.store.codes).toContainEqual({
    ...code,
    hash: fingerprint(code.hash),
    signup: { name: 'S', passwordHash: fingerprint(code.signup!.passwordHash) },
  })
  const resetToken = plain(store.resetTokens[0]!)
  expect(state.store.resetTokens).toEqual([{ ...resetToken, hash: fingerprint(resetToken.hash) }])
  expect(state.store.steps).toEqual(plain(store.steps))
  // Every record is there, the seeded accounts' too, each password hash as its fingerprint.
  for (const name of ['users', 'sessions', 'refreshTokens', 'codes', 'resetTokens', 'steps'] as const)
    expect(state.store[name]).toHaveLength(store[name].length)
  expect(state.store.users.map((row) => row.passwordHash)).toEqual(
    store.users.map((row) => fingerprint(row.passwordHash)),
  )
  // No stored secret leaves as it is, nor any password hash.
  const text = JSON.stringify(state)
  const secrets = [user.passwordHash, session.cookieHash, session.serviceTokenHash, retired.hash]
  for (const secret of [...secrets, retired.graceBox!, current.hash, code.hash, code.signup!.passwordHash])
    expect(text).not.toContain(secret)
  expect(text).not.toContain('$argon2')
})

test('the fingerprint is the first 16 hex digits of the SHA-256; the rest of the state as the pieces give it', async () => {
  // SHA-256("abc") is ba7816bf 8f01cfea 414140de 5dae2223 ... (the standard's own test vector).
  expect(fingerprint('abc')).toBe('ba7816bf8f01cfea')
  const { core } = await coreWithEverySecret()
  core.clock.advance(5_000)
  await core.ops.scenarios.arm({ name: 'latency', delay_ms: 1 })
  core.ops.mailbox.send({ to: EMAIL, subject: 'Code', purpose: 'login', code: '123456' })
  const state = await readMockState(core.ops)
  expect(state.guesses).toEqual([
    { key: 'login:zed@example.test', times: [1] },
    { key: 'reset:amy@example.test', times: [2] },
  ])
  expect(state.mails).toEqual([
    expect.objectContaining({ to: EMAIL, subject: 'Code', purpose: 'login', code: '123456' }),
  ])
  expect(state.scenarios).toEqual([expect.objectContaining({ name: 'latency', delay_ms: 1 })])
  expect(state.clock).toEqual({ offset_ms: 5_000 })
})
