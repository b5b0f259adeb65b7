// Sign-ups before the address is proven: which details the account gets when its address is proven.
import { describe, expect, test } from 'vitest'
import {
  ACCOUNT_FAILURE_CEILING,
  ACCOUNT_PACE_MS,
  CODE_COOLDOWN_MS,
  CODE_GUESS_LIMIT,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  FAMILIAR_CLIENT_MS,
  LOCKOUT_MS,
  LOCKOUT_THRESHOLD,
} from '../../shared/constants.ts'
import type { DomainContext } from './context.ts'
import { consumeCode, issueCode, writeCode } from './codes.ts'
import { createRandomPool } from '../../shared/crypto.ts'
import { createDecoyCodes } from './decoys.ts'
import { createTokenKeys } from './token-keys.ts'
import { createGuessLog } from './guess-log.ts'
import { createKeyedLock } from './locks.ts'
import { asAsync } from './counters.ts'
import { createLockout } from './lockout.ts'
import { createPasswordHasher } from './passwords.ts'
import { createPendingPasswords } from './pending-passwords.ts'
import { proveAddress, recordSignUp, resendSignUpCode } from './sign-ups.ts'
import { createMemoryStore } from '../storage/memory.ts'
import { createUser, getUserByEmail } from './users.ts'

const EMAIL = 'owner@example.test'

function createDomain() {
  let now = 1_000_000
  const clock = { now: () => now }
  const ctx: DomainContext = {
    store: createMemoryStore(),
    clock,
    locks: createKeyedLock(),
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    mailbox: { send: () => undefined as never },
    config: {
      accessTokenTtlMs: 60_000,
      refreshTokenTtlMs: 60_000,
      refreshGraceMs: 1_000,
      codeTtlMs: CODE_TTL_MS,
      codeCooldownMs: CODE_COOLDOWN_MS,
      codeMaxAttempts: CODE_MAX_ATTEMPTS,
      secret: 'test-secret',
    },
    decoys: asAsync(createDecoyCodes(10)),
    pendingPasswords: asAsync(createPendingPasswords(clock, { max: 10, keepMs: 60_000 })),
    guesses: asAsync(createGuessLog(CODE_GUESS_LIMIT, 10)),
    lockout: asAsync(
      createLockout(clock, {
        threshold: LOCKOUT_THRESHOLD,
        lockMs: LOCKOUT_MS,
        ceiling: ACCOUNT_FAILURE_CEILING,
        paceMs: ACCOUNT_PACE_MS,
        familiarMs: FAMILIAR_CLIENT_MS,
      }),
    ),
    random: createRandomPool(),
    tokenKeys: createTokenKeys(),
  }
  return { ctx, advance: (ms: number) => void (now += ms) }
}

type Step = { signUp: string } | { wait: number } | { resend: true }

/** Runs the steps, then proves the address with the newest code mailed; the account's name and password after it. */
async function proveAfter(steps: readonly Step[]) {
  const { ctx, advance } = createDomain()
  let newest: string | null = null
  for (const step of steps) {
    if ('wait' in step) advance(step.wait)
    else if ('signUp' in step) {
      const passwordHash = await ctx.hasher.hash(`${step.signUp} passphrase`)
      newest = (await recordSignUp(ctx, { email: EMAIL, name: step.signUp, passwordHash })) ?? newest
    } else newest = await resendSignUpCode(ctx, (await getUserByEmail(ctx, EMAIL))!)
  }
  const check = await consumeCode(ctx, EMAIL, 'signup', newest!)
  if (!check.ok) throw new Error(`Failed to prove the address: ${check.reason}.`)
  const user = await proveAddress(ctx, (await getUserByEmail(ctx, EMAIL))!, { signup: check.signup })
  const opens = async (who: string) => ctx.hasher.verify(user.passwordHash, `${who} passphrase`)
  return {
    name: user.name,
    verified: user.verified,
    owner: await opens('Owner'),
    other: await opens('Other'),
  }
}

describe('which sign-up a proven address keeps', () => {
  test.each([
    { label: 'one sign-up: its details', steps: [{ signUp: 'Owner' }], name: 'Owner', owner: true },
    {
      label: 'a resend proves the same sign-up',
      steps: [{ signUp: 'Owner' }, { wait: CODE_COOLDOWN_MS }, { resend: true }],
      name: 'Owner',
      owner: true,
    },
    {
      label: 'a resend once the code expired proves the account’s own (uncontested) details',
      steps: [{ signUp: 'Owner' }, { wait: CODE_TTL_MS }, { resend: true }],
      name: 'Owner',
      owner: true,
    },
    {
      label: 'another sign-up within the cooldown: neither password',
      steps: [{ signUp: 'Owner' }, { signUp: 'Other' }],
      name: 'owner',
      owner: false,
    },
    {
      label: 'another sign-up after the cooldown, code alive: neither password',
      steps: [{ signUp: 'Other' }, { wait: CODE_COOLDOWN_MS }, { signUp: 'Owner' }],
      name: 'owner',
      owner: false,
    },
    {
      label: 'a contested sign-up stays contested through a resend',
      steps: [{ signUp: 'Owner' }, { signUp: 'Other' }, { wait: CODE_COOLDOWN_MS }, { resend: true }],
      name: 'owner',
      owner: false,
    },
    {
      label: 'a sign-up once the earlier code expired: the newer one',
      steps: [{ signUp: 'Other' }, { wait: CODE_TTL_MS }, { signUp: 'Owner' }],
      name: 'Owner',
      owner: true,
    },
  ] as const)('$label', async ({ steps, name, owner }) => {
    const proven = await proveAfter(steps)
    expect(proven).toEqual({ name, verified: true, owner, other: false })
  })
})

test('proving the address another way drops the unproven password and name; a verified account is kept as it is', async () => {
  const { ctx } = createDomain()
  const squatted = await createUser(ctx, {
    email: EMAIL,
    name: 'Other',
    password: 'Other passphrase',
    verified: false,
  })
  const proven = await proveAddress(ctx, squatted, { signup: null, name: 'From The Provider' })
  expect(proven).toMatchObject({ name: 'From The Provider', verified: true })
  expect(await ctx.hasher.verify(proven.passwordHash, 'Other passphrase')).toBe(false)
  const again = await proveAddress(ctx, proven, {
    signup: { name: 'Other', passwordHash: squatted.passwordHash },
  })
  expect(again).toEqual(proven)
})

describe('which sign-up a proven address keeps, once codes expired', () => {
  test.each([
    {
      label: 'a resend once a contested sign-up’s codes expired: still neither password',
      steps: [{ signUp: 'Owner' }, { signUp: 'Other' }, { wait: CODE_TTL_MS }, { resend: true }],
      name: 'owner',
      owner: false,
    },
    {
      label: 'a resend once the newer sign-up’s code expired too: the newer one',
      steps: [
        { signUp: 'Other' },
        { wait: CODE_TTL_MS },
        { signUp: 'Owner' },
        { wait: CODE_TTL_MS },
        { resend: true },
      ],
      name: 'Owner',
      owner: true,
    },
  ] as const)('$label', async ({ steps, name, owner }) => {
    const proven = await proveAfter(steps)
    expect(proven).toEqual({ name, verified: true, owner, other: false })
  })
})

test('a sign-up’s name is kept without the spaces around it', async () => {
  const { ctx } = createDomain()
  const code = await recordSignUp(ctx, { email: EMAIL, name: '  Ada Lovelace ', passwordHash: 'hash' })
  const check = await consumeCode(ctx, EMAIL, 'signup', code!)
  expect(check).toEqual({ ok: true, signup: { name: 'Ada Lovelace', passwordHash: 'hash' } })
})

test('a name proven another way is kept without the spaces around it; a blank one gives the local part', async () => {
  const { ctx } = createDomain()
  const input = { email: EMAIL, name: 'Other', password: 'Other passphrase', verified: false }
  const named = await proveAddress(ctx, await createUser(ctx, input), { signup: null, name: ' Ada ' })
  expect(named.name).toBe('Ada')
  await ctx.store.users.update(named.id, { verified: false })
  const blank = await proveAddress(ctx, (await getUserByEmail(ctx, EMAIL))!, { signup: null, name: '  ' })
  expect(blank.name).toBe('owner')
})

test('a code asked for an address without an account does not contest its sign-up: the resend proves it', async () => {
  // That code is a decoy, written and not mailed; its cooldown still runs, so the sign-up mails nothing yet.
  const { ctx, advance } = createDomain()
  await issueCode(ctx, EMAIL, 'signup', false)
  const pending = { name: 'Owner', passwordHash: 'owner hash' }
  await expect(recordSignUp(ctx, { email: EMAIL, ...pending })).resolves.toBeNull()
  const user = (await getUserByEmail(ctx, EMAIL))!
  expect(user).toMatchObject({ ...pending, verified: false })
  advance(CODE_COOLDOWN_MS)
  const resent = await resendSignUpCode(ctx, user)
  expect(await consumeCode(ctx, EMAIL, 'signup', resent)).toEqual({ ok: true, signup: pending })
})

test('a resent code of a contested sign-up proves no one’s sign-up', async () => {
  const { ctx, advance } = createDomain()
  await recordSignUp(ctx, { email: EMAIL, name: 'Owner', passwordHash: 'owner hash' })
  await recordSignUp(ctx, { email: EMAIL, name: 'Other', passwordHash: 'other hash' })
  advance(CODE_COOLDOWN_MS)
  const resent = await resendSignUpCode(ctx, (await getUserByEmail(ctx, EMAIL))!)
  expect(await consumeCode(ctx, EMAIL, 'signup', resent)).toEqual({ ok: true, signup: null })
})

test('a resend proves what the newest of the alive codes proves', async () => {
  const { ctx, advance } = createDomain()
  const user = await createUser(ctx, { email: EMAIL, name: 'Nobody', passwordHash: 'none', verified: false })
  await writeCode(ctx, EMAIL, 'signup', { name: 'Other', passwordHash: 'other hash' })
  advance(1)
  await writeCode(ctx, EMAIL, 'signup', { name: 'Owner', passwordHash: 'owner hash' })
  advance(CODE_COOLDOWN_MS)
  const resent = await resendSignUpCode(ctx, user)
  expect(await consumeCode(ctx, EMAIL, 'signup', resent)).toEqual({
    ok: true,
    signup: { name: 'Owner', passwordHash: 'owner hash' },
  })
})

describe('a sign-up and a resend run under the address’s sign-up code lock, one after another with a code check', () => {
  test('a code checked while a contesting sign-up runs is checked after it: it proves no one’s sign-up', async () => {
    const { ctx } = createDomain()
    const code = await recordSignUp(ctx, { email: EMAIL, name: 'Owner', passwordHash: 'owner hash' })
    const [, check] = await Promise.all([
      recordSignUp(ctx, { email: EMAIL, name: 'Other', passwordHash: 'other hash' }),
      consumeCode(ctx, EMAIL, 'signup', code!),
    ])
    expect(check).toEqual({ ok: true, signup: null })
  })

  test('a code checked while a resend runs is checked after it: the resent code superseded it', async () => {
    const { ctx, advance } = createDomain()
    const code = await recordSignUp(ctx, { email: EMAIL, name: 'Owner', passwordHash: 'owner hash' })
    advance(CODE_COOLDOWN_MS)
    const [, check] = await Promise.all([
      resendSignUpCode(ctx, (await getUserByEmail(ctx, EMAIL))!),
      consumeCode(ctx, EMAIL, 'signup', code!),
    ])
    expect(check).toEqual({ ok: false, reason: 'invalid_code', attemptsLeft: 4 })
  })
})

test('a sign-up given a mixed-case address is the lower-case address: its code and its account', async () => {
  const { ctx } = createDomain()
  const pending = { name: 'Owner', passwordHash: 'owner hash' }
  const code = await recordSignUp(ctx, { email: ' Owner@Example.TEST ', ...pending })
  expect(await getUserByEmail(ctx, EMAIL)).toMatchObject({ email: EMAIL, ...pending, verified: false })
  expect(await consumeCode(ctx, EMAIL, 'signup', code!)).toEqual({ ok: true, signup: pending })
})

test('a sign-up at a mixed-case spelling contests the sign-up at the lower-case one', async () => {
  const { ctx } = createDomain()
  await recordSignUp(ctx, { email: EMAIL, name: 'Owner', passwordHash: 'owner hash' })
  await recordSignUp(ctx, { email: 'OWNER@example.test', name: 'Other', passwordHash: 'other hash' })
  const { passwordHash } = (await getUserByEmail(ctx, EMAIL))!
  expect(['owner hash', 'other hash'], 'both passwords withdrawn').not.toContain(passwordHash)
})
