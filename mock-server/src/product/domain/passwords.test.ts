// The password policy's length limits and e-mail rule, and the hasher: its cost, its dummy hash, published passwords' hashes,
// and how many hashes run at once.
import { expect, test } from 'vitest'
import { ARGON2_PARAMS, PASSWORD_MAX_LENGTH } from '../../shared/constants.ts'
import { createPasswordHasher, getPasswordProblem } from './passwords.ts'

/** The cost the tests hash at; a hash of the server's cost takes tens of milliseconds. */
const CHEAP = { memoryCost: 1024, timeCost: 1 }

test('a new password has at most 128 characters, counted as characters, not UTF-16 units', () => {
  expect(PASSWORD_MAX_LENGTH).toBe(128)
  expect(getPasswordProblem('ab'.repeat(64))).toBeNull()
  expect(getPasswordProblem(`${'ab'.repeat(64)}c`)).toBe('Use at most 128 characters.')
  // Each of these is one character of two UTF-16 units.
  expect(getPasswordProblem('😀'.repeat(128))).toBeNull()
  expect(getPasswordProblem('😀'.repeat(129))).toBe('Use at most 128 characters.')
})

test.each([
  { email: 'ada.lovelace@example.test', password: 'Ada.Lovelace@Example.TEST' },
  { email: 'Ada.Lovelace@Example.test', password: 'ada.lovelace@example.test' },
  { email: 'Ada.Lovelace@Example.test', password: 'ADA.LOVELACE@EXAMPLE.TEST' },
] as const)(
  'a password equal to the e-mail address in another case is refused: $password for $email',
  ({ email, password }) => {
    expect(getPasswordProblem(password, { email })).toBe('Do not use your e-mail address as your password.')
  },
)

test('a hasher hashes with argon2id at the cost it is given, and at the server cost by default', async () => {
  expect(await createPasswordHasher(CHEAP).hash('pass phrase 1')).toMatch(
    /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/,
  )
  const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS
  expect(await createPasswordHasher().hash('pass phrase 1')).toMatch(
    new RegExp(String.raw`^\$argon2id\$v=19\$m=${memoryCost},t=${timeCost},p=${parallelism}\$`),
  )
})

test('a stored hash the hasher cannot read verifies as false, not as an error', async () => {
  const hasher = createPasswordHasher(CHEAP)
  expect(await hasher.verify('not a hash', 'pass phrase 1')).toBe(false)
  expect(await hasher.verify('', '')).toBe(false)
})

test('the dummy hash stands for no password: no password verifies against it, not even the empty one', async () => {
  const hasher = createPasswordHasher(CHEAP)
  const dummy = await hasher.dummyHash()
  expect(dummy).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
  expect(await hasher.dummyHash(), 'made once per hasher').toBe(dummy)
  for (const password of ['', 'dummy-', 'pass phrase 1'])
    expect(await hasher.verify(dummy, password)).toBe(false)
})

test('a published password is hashed once per hasher, and its hash verifies it', async () => {
  const hasher = createPasswordHasher(CHEAP)
  const first = await hasher.hashPublished('published pass phrase')
  expect(await hasher.hashPublished('published pass phrase')).toBe(first)
  expect(await hasher.verify(first, 'published pass phrase')).toBe(true)
  expect(await hasher.hashPublished('another published phrase')).not.toBe(first)
})

test.each([
  { name: 'the build’s cost', cost: ARGON2_PARAMS, built: true },
  { name: 'another memory cost', cost: { ...ARGON2_PARAMS, memoryCost: 1024 }, built: false },
  { name: 'another time cost', cost: { ...ARGON2_PARAMS, timeCost: 1 }, built: false },
])(
  'the compiled server’s build-time hashes are taken by a hasher of $name: $built',
  async ({ cost, built }) => {
    // The build hashes at ARGON2_PARAMS (scripts/build-server.ts); a hash of another cost would not verify alike.
    const buildTime = { dummyHash: 'built dummy', seedHashes: { 'demo pass phrase': 'built seed' } }
    const hasher = createPasswordHasher({ ...cost, buildTime })
    expect((await hasher.dummyHash()) === 'built dummy').toBe(built)
    expect((await hasher.hashPublished('demo pass phrase')) === 'built seed').toBe(built)
    // A password the build did not hash is hashed here.
    expect(await hasher.hashPublished('another phrase')).toMatch(/^\$argon2id\$/)
  },
)

test('a published password whose hash failed is hashed again at the next call, not answered from the failure', async () => {
  // A memory cost argon2 refuses: every hash fails, so each call's failure is its own only if it hashed again.
  const hasher = createPasswordHasher({ memoryCost: 1, timeCost: 1 })
  const first = await hasher.hashPublished('published pass phrase').catch((error: unknown) => error)
  expect(first).toBeInstanceOf(Error)
  const second = await hasher.hashPublished('published pass phrase').catch((error: unknown) => error)
  expect(second).toBeInstanceOf(Error)
  expect(second).not.toBe(first)
})

test('hashes past the hasher’s concurrency (2 by default) wait their turn: a quick check queued behind them answers last', async () => {
  // Two hashes at the server cost, then a check of an unreadable hash, which alone takes microseconds.
  const order: string[] = []
  const hasher = createPasswordHasher()
  await Promise.all([
    hasher.hash('pass phrase 1').then(() => order.push('hash')),
    hasher.hash('pass phrase 2').then(() => order.push('hash')),
    hasher.verify('not a hash', 'pass phrase 3').then(() => order.push('verify')),
  ])
  expect(order[0]).toBe('hash')

  const single = createPasswordHasher({ concurrency: 1 })
  order.length = 0
  await Promise.all([
    single.hash('pass phrase 1').then(() => order.push('hash')),
    single.verify('not a hash', 'pass phrase 3').then(() => order.push('verify')),
  ])
  expect(order).toEqual(['hash', 'verify'])
})
