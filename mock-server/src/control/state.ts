// What `GET /__mock/state` answers (mock-server/control.openapi.yaml, MockState). The contract suite reads it
// around a call, over HTTP or in-process, and both compare this one shape. Secrets leave only as fingerprints.
import { createHash } from 'node:crypto'
import type { components } from '#api/control.gen.ts'
import type { Mailbox } from './mailbox.ts'
import type { Scenarios } from './scenarios.ts'
import type { ControlClock } from '../shared/control-clock.ts'

export type MockState = components['schemas']['MockState']
type CollectionName = keyof MockState['store']

/** What the state is read from; core.ts hands in the product's domain. */
export interface StateSources {
  domain: {
    store: { snapshot(): Promise<{ [K in CollectionName]: readonly object[] }> }
    guesses: { snapshot(): Promise<Record<string, readonly number[]>> }
  }
  mailbox: Pick<Mailbox, 'snapshot'>
  scenarios: Pick<Scenarios, 'list'>
  clock: Pick<ControlClock, 'offsetMs'>
  /** This server's fingerprints already taken (createFingerprints). */
  fingerprints: Fingerprints
}

/** Per collection, the fields that hold a hash or a sealed secret (a code's sign-up is handled apart). */
const SECRET_FIELDS: { [K in CollectionName]: readonly string[] } = {
  users: ['passwordHash'],
  sessions: ['cookieHash', 'serviceTokenHash'],
  refreshTokens: ['hash', 'graceBox'],
  codes: ['hash'],
  resetTokens: ['hash'],
  steps: [],
}

/**
 * The first 16 hex digits of the SHA-256 of `value`: enough to see that a secret changed, nothing to use it with.
 * @example fingerprint('$argon2id$v=19$...') // '3f2a9c0d1e4b5a67'
 */
export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16)
}

/** A secret field's fingerprint, taken once for each value it holds. */
export type Fingerprints = (record: object, field: string, value: unknown) => string | null

/**
 * The fingerprints already taken, by record and field: a test reads the state around every call, and most records
 * have not changed. One cache per server (createControl), so two servers share none.
 */
export function createFingerprints(): Fingerprints {
  const taken = new WeakMap<object, Map<string, { value: string; fingerprint: string }>>()
  return (record, field, value) => {
    if (typeof value !== 'string') return null
    let fields = taken.get(record)
    if (!fields) taken.set(record, (fields = new Map()))
    const known = fields.get(field)
    if (known?.value === value) return known.fingerprint
    const made = fingerprint(value)
    fields.set(field, { value, fingerprint: made })
    return made
  }
}

function readRecords(
  name: CollectionName,
  records: readonly object[],
  fingerprintOf: Fingerprints,
): Record<string, unknown>[] {
  const secret = SECRET_FIELDS[name]
  return records.map((record) => {
    // String keys only (for...in): the collections' bookkeeping (symbol keys) is not state. Faster than
    // Object.entries, which counted at some 300 records read around each of 10,000 calls.
    const out: Record<string, unknown> = {}
    for (const key in record) {
      const value = (record as Record<string, unknown>)[key]
      out[key] = secret.includes(key) ? fingerprintOf(record, key, value) : value
    }
    if (name === 'codes' && out.signup) {
      const signup = out.signup as { name: string; passwordHash: string }
      out.signup = {
        name: signup.name,
        passwordHash: fingerprintOf(signup, 'passwordHash', signup.passwordHash),
      }
    }
    return out
  })
}

/**
 * The state `GET /__mock/state` answers: the same object for the handler and for the in-process readers of the
 * contract suite (generated-input, conformance, bad-input).
 * @example const before = JSON.stringify(await readMockState(ops)); ... ; expect(JSON.stringify(await readMockState(ops))).toBe(before)
 */
export async function readMockState(ops: StateSources): Promise<MockState> {
  const { store, guesses } = ops.domain
  const records = await store.snapshot()
  const collections = Object.fromEntries(
    (Object.keys(SECRET_FIELDS) as CollectionName[]).map((name) => [
      name,
      readRecords(name, records[name], ops.fingerprints),
    ]),
  )
  return {
    store: collections as MockState['store'],
    // Sorted: a guess moves its address to the end of the log, which is no change of what is counted.
    guesses: Object.entries(await guesses.snapshot())
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, times]) => ({ key, times: [...times] })),
    mails: await ops.mailbox.snapshot(),
    scenarios: await ops.scenarios.list(),
    clock: { offset_ms: ops.clock.offsetMs() },
  }
}
