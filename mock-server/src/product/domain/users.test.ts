// Accounts: what creating one stores, the address taken meanwhile, the password check's lock and lock-out, the
// password still current, and marking an account verified.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { LOCKOUT_THRESHOLD } from '../../shared/constants.ts'
import type { DomainContext } from './context.ts'
import type { PasswordHasher } from './passwords.ts'
import { listSteps } from './process.ts'
import {
  checkCredentials,
  createUser,
  getUserByEmail,
  getUserById,
  isPasswordCurrent,
  markVerified,
} from './users.ts'

const CHEAP = { memoryCost: 1024, timeCost: 1 }

async function createDomain() {
  const core = createMockCore({ seed: false, hasher: CHEAP })
  await core.ready
  return core.ops.domain
}

test('a new account keeps its name without the white space around it, and its address normalized', async () => {
  const ctx = await createDomain()
  const user = await createUser(ctx, {
    email: 'Ada@Example.Test',
    name: '  Ada Lovelace \n',
    verified: false,
    password: 'pass phrase 1',
  })
  expect(user.name).toBe('Ada Lovelace')
  expect(await getUserById(ctx, user.id)).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test' })
})

test('an address taken meanwhile answers with the account it has, which keeps its one set of steps', async () => {
  const ctx = await createDomain()
  const first = await createUser(ctx, {
    email: 'ada@example.test',
    name: 'Ada',
    verified: true,
    password: 'pass phrase 1',
  })
  const again = await createUser(ctx, {
    email: 'ADA@example.test',
    name: 'Someone else',
    verified: false,
    password: 'pass phrase 2',
  })
  expect(again).toEqual(first)
  expect(await listSteps(ctx, first.id)).toHaveLength(6)
})

test('an address taken whose account is gone before it is read is an error, not an account', async () => {
  const ctx = await createDomain()
  // The store refuses the address (another instance made its account), and that account is gone by the read.
  const users = { ...ctx.store.users, create: async () => null, byEmail: async () => null }
  const raced: DomainContext = { ...ctx, store: { ...ctx.store, users } }
  await expect(
    createUser(raced, { email: 'ada@example.test', name: 'Ada', verified: true, password: 'pass phrase 1' }),
  ).rejects.toThrow('Failed to create an account: the address is taken and its account is gone.')
})

test('a checked password is current while it is the account’s, and never for an account that is gone', async () => {
  const ctx = await createDomain()
  const user = await createUser(ctx, {
    email: 'ada@example.test',
    name: 'Ada',
    verified: true,
    password: 'pass phrase 1',
  })
  expect(await isPasswordCurrent(ctx, user.id, user.passwordHash)).toBe(true)
  expect(await isPasswordCurrent(ctx, user.id, await ctx.hasher.hash('pass phrase 1'))).toBe(false)
  expect(await isPasswordCurrent(ctx, 'no-such-account', user.passwordHash)).toBe(false)
})

test('marking an unverified account verified stores it verified and answers with the stored account', async () => {
  const ctx = await createDomain()
  const user = await createUser(ctx, {
    email: 'ada@example.test',
    name: 'Ada',
    verified: false,
    password: 'pass phrase 1',
  })
  expect(await markVerified(ctx, user)).toEqual({ ...user, verified: true })
  expect(await getUserByEmail(ctx, 'ada@example.test')).toEqual({ ...user, verified: true })
  // Already verified: answered as it is.
  const verified = { ...user, verified: true }
  expect(await markVerified(ctx, verified)).toEqual(verified)
})

test('a password check of one address does not wait for a slow check of another address', async () => {
  const ctx = await createDomain()
  // A hasher that answers at once, but holds the check of the password 'held' until released.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const hasher: PasswordHasher = {
    hash: async (password) => `hash:${password}`,
    verify: async (hashed, password) => {
      if (password === 'held') await held
      return hashed === `hash:${password}`
    },
    dummyHash: async () => 'hash:dummy',
    hashPublished: async (password) => `hash:${password}`,
  }
  const quick: DomainContext = { ...ctx, hasher }
  const slow = checkCredentials(quick, 'ada@example.test', 'held', 'client-1')
  let answered = false
  const other = checkCredentials(quick, 'bob@example.test', 'pass phrase 1', 'client-2').then((check) => {
    answered = true
    return check
  })
  // Every step of the other check is a settled promise here: one turn of the event loop runs them all.
  await new Promise((resolve) => setImmediate(resolve))
  expect(answered).toBe(true)
  expect(await other).toEqual({ ok: false, reason: 'invalid_credentials' })
  release()
  expect(await slow).toEqual({ ok: false, reason: 'invalid_credentials' })
})

/** Ada's verified account, and the lock-out's threshold of wrong passwords for it from `client` at `spelling`. */
async function lockOutAda(spelling: string, client: string) {
  const ctx = await createDomain()
  await createUser(ctx, { email: 'ada@example.test', name: 'Ada', verified: true, password: 'pass phrase 1' })
  for (let i = 0; i < LOCKOUT_THRESHOLD; i += 1) await checkCredentials(ctx, spelling, 'wrong phrase', client)
  return ctx
}

test('a locked client is refused even with the right password; another client still signs in', async () => {
  const ctx = await lockOutAda('ada@example.test', 'attacker')
  expect(await checkCredentials(ctx, 'ada@example.test', 'pass phrase 1', 'attacker')).toEqual({
    ok: false,
    reason: 'invalid_credentials',
  })
  expect(await checkCredentials(ctx, 'ada@example.test', 'pass phrase 1', 'owner')).toMatchObject({
    ok: true,
  })
})

test('wrong passwords at a mixed-case spelling of an address count toward that account’s lock-out', async () => {
  const ctx = await lockOutAda('Ada@Example.TEST', 'attacker')
  expect(await ctx.lockout.getLockSeconds('ada@example.test', 'attacker')).toBeGreaterThan(0)
  expect(await checkCredentials(ctx, 'ada@example.test', 'pass phrase 1', 'attacker')).toEqual({
    ok: false,
    reason: 'invalid_credentials',
  })
})
