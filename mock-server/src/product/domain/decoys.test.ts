// Decoy codes: bounded (the oldest go first) and purged by the caller's rule.
import { expect, test } from 'vitest'
import { createDecoyCodes } from './decoys.ts'
import type { CodeFields } from '../storage/records.ts'

const decoy = (email: string, expiresAt = 1_000): CodeFields => ({
  id: email,
  email,
  purpose: 'signup',
  hash: 'h',
  sentAt: 0,
  expiresAt,
  attempts: 0,
  usedAt: null,
  burned: false,
  supersededAt: null,
  signup: null,
})

test('past the cap the oldest decoy goes; updating one keeps its place', () => {
  const decoys = createDecoyCodes(2)
  decoys.set(decoy('a@x.test'))
  decoys.set(decoy('b@x.test'))
  decoys.set({ ...decoy('a@x.test'), attempts: 1 })
  expect(decoys.size()).toBe(2)
  decoys.set(decoy('c@x.test'))
  expect(decoys.get('a@x.test', 'signup')).toBeUndefined()
  expect(decoys.get('b@x.test', 'signup')?.attempts).toBe(0)
  expect(decoys.get('c@x.test', 'signup')).toBeDefined()
})

test('purge drops what the rule says is done, and counts it', () => {
  const decoys = createDecoyCodes(10)
  decoys.set(decoy('old@x.test', 100))
  decoys.set(decoy('new@x.test', 5_000))
  expect(decoys.purge((record) => record.expiresAt <= 1_000)).toBe(1)
  expect(decoys.get('new@x.test', 'signup')).toBeDefined()
  decoys.clear()
  expect(decoys.size()).toBe(0)
})
