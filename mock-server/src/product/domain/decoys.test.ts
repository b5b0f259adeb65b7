// Decoy codes: bounded (the oldest go first), counted in one step, and purged as the real codes are.
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
  decoys.countWrong(decoy('a@x.test'), 5)
  decoys.countWrong(decoy('b@x.test'), 5)
  decoys.countWrong(decoy('a@x.test'), 5)
  expect(decoys.size()).toBe(2)
  decoys.countWrong(decoy('c@x.test'), 5)
  expect(decoys.get('a@x.test', 'signup')).toBeUndefined()
  expect(decoys.get('b@x.test', 'signup')?.attempts).toBe(1)
  expect(decoys.get('c@x.test', 'signup')).toBeDefined()
})

test('a wrong guess counts on the kept decoy; the last allowed burns it, and a burned one counts no more', () => {
  const decoys = createDecoyCodes(10)
  expect(decoys.countWrong(decoy('a@x.test'), 2)).toEqual({ attempts: 1, burned: false })
  // The caller's fresh record does not start the count again: the kept decoy is counted.
  expect(decoys.countWrong(decoy('a@x.test'), 2)).toEqual({ attempts: 2, burned: true })
  expect(decoys.countWrong(decoy('a@x.test'), 2)).toBeNull()
  expect(decoys.get('a@x.test', 'signup')).toMatchObject({ attempts: 2, burned: true })
})

test('purge drops the decoys expired and past their cooldown, and counts them', () => {
  const decoys = createDecoyCodes(10)
  decoys.countWrong(decoy('old@x.test', 100), 5)
  decoys.countWrong(decoy('new@x.test', 5_000), 5)
  decoys.countWrong({ ...decoy('cooling@x.test', 100), sentAt: 900 }, 5)
  expect(decoys.purge(1_000, 500)).toBe(1)
  expect(decoys.get('old@x.test', 'signup')).toBeUndefined()
  expect(decoys.get('new@x.test', 'signup')).toBeDefined()
  expect(decoys.get('cooling@x.test', 'signup')).toBeDefined()
  decoys.clear()
  expect(decoys.size()).toBe(0)
})

test('a decoy is done at the very millisecond it expires and its cooldown ends', () => {
  const decoys = createDecoyCodes(10)
  decoys.countWrong({ ...decoy('expiring@x.test', 1_000), sentAt: 0 }, 5)
  decoys.countWrong({ ...decoy('cooling@x.test', 100), sentAt: 500 }, 5)
  expect(decoys.purge(999, 500), 'one millisecond before, both are kept').toBe(0)
  expect(decoys.purge(1_000, 500)).toBe(2)
  expect(decoys.size()).toBe(0)
})

test('decoys count per address and purpose: wrong guesses at the login decoy do not burn the reset decoy', () => {
  const decoys = createDecoyCodes(10)
  const login = { ...decoy('a@x.test'), purpose: 'login' } as const
  const reset = { ...decoy('a@x.test'), purpose: 'reset' } as const
  decoys.countWrong(login, 2)
  expect(decoys.countWrong(login, 2)).toEqual({ attempts: 2, burned: true })
  expect(decoys.countWrong(reset, 2)).toEqual({ attempts: 1, burned: false })
  expect(decoys.get('a@x.test', 'login')).toMatchObject({ purpose: 'login', attempts: 2, burned: true })
  expect(decoys.get('a@x.test', 'reset')).toMatchObject({ purpose: 'reset', attempts: 1, burned: false })
})
