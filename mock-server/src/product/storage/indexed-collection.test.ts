import { describe, expect, test, vi } from 'vitest'
import { Collection } from '@msw/data'
import { z } from 'zod'
import { IndexedCollection } from './indexed-collection.ts'

const schema = z.object({ id: z.string(), hash: z.string(), retiredAt: z.number().nullable() })

function createTokens() {
  return new IndexedCollection({ schema, indexes: ['id', 'hash'] })
}

type Tokens = ReturnType<typeof createTokens>

/** What the index must answer: the library's own scan. */
function scan(tokens: Tokens, field: 'id' | 'hash', value: string) {
  return tokens.findFirst((q) => q.where({ [field]: value }))
}

function expectInStep(tokens: Tokens, values: string[]) {
  for (const value of values) {
    for (const field of ['id', 'hash'] as const) {
      expect(tokens.findBy(field, value), `${field} ${value}`).toBe(scan(tokens, field, value))
    }
  }
}

describe('IndexedCollection', () => {
  test('finds what it created, by each indexed field, and nothing else', async () => {
    const tokens = createTokens()
    const created = await tokens.create({ id: 'a', hash: 'ha', retiredAt: null })
    expect(tokens.findBy('id', 'a')).toBe(created)
    expect(tokens.findBy('hash', 'ha')).toBe(created)
    expect(tokens.findBy('id', 'ha')).toBeUndefined()
    expect(tokens.findBy('hash', 'missing')).toBeUndefined()
  })

  test('an update is found in its new version, and a changed value no longer under the old one', async () => {
    const tokens = createTokens()
    const first = await tokens.create({ id: 'a', hash: 'ha', retiredAt: null })
    await tokens.update(first, { data: (draft) => void (draft.retiredAt = 5) })
    expect(tokens.findBy('id', 'a')?.retiredAt).toBe(5)
    await tokens.update((q) => q.where({ id: 'a' }), { data: (draft) => void (draft.hash = 'hb') })
    expect(tokens.findBy('hash', 'ha')).toBeUndefined()
    expect(tokens.findBy('hash', 'hb')?.retiredAt).toBe(5)
    // A stale version as the predicate updates the current one, as the library does (by its primary key).
    await tokens.update(first, { data: (draft) => void (draft.retiredAt = 6) })
    expect(tokens.findBy('id', 'a')).toMatchObject({ hash: 'hb', retiredAt: 6 })
    expectInStep(tokens, ['a', 'ha', 'hb'])
  })

  test('updateMany, delete (by query, by a stale record), deleteMany and clear leave no stale entry', async () => {
    const tokens = createTokens()
    for (const id of ['a', 'b', 'c', 'd', 'e']) await tokens.create({ id, hash: `h${id}`, retiredAt: null })
    await tokens.updateMany((q) => q.where({ retiredAt: null }), {
      data: (draft) => void (draft.retiredAt = 1),
    })
    expect(tokens.findBy('hash', 'hc')?.retiredAt).toBe(1)
    const stale = tokens.findBy('id', 'a')!
    await tokens.update(stale, { data: (draft) => void (draft.retiredAt = 2) })
    tokens.delete(stale)
    expect(tokens.findBy('id', 'a')).toBeUndefined()
    tokens.delete((q) => q.where({ id: 'b' }))
    expect(tokens.findBy('hash', 'hb')).toBeUndefined()
    tokens.deleteMany((q) => q.where({ hash: (hash) => hash === 'hc' || hash === 'hd' }))
    expectInStep(tokens, ['a', 'b', 'c', 'd', 'e', 'ha', 'hb', 'hc', 'hd', 'he'])
    expect(tokens.findBy('id', 'e')).toBeDefined()
    // The library's clear deletes while it walks its own array; the index forgets everything all the same.
    for (const id of ['f', 'g', 'h']) await tokens.create({ id, hash: `h${id}`, retiredAt: null })
    tokens.clear()
    expect(tokens.count()).toBe(0)
    for (const id of ['e', 'f', 'g', 'h']) expect(tokens.findBy('id', id)).toBeUndefined()
  })

  test('a value two records hold answers the first in the collection, as findFirst does', async () => {
    const tokens = createTokens()
    const first = await tokens.create({ id: 'a', hash: 'same', retiredAt: null })
    const second = await tokens.create({ id: 'b', hash: 'same', retiredAt: null })
    expect(tokens.findBy('hash', 'same')).toBe(first)
    tokens.delete(first)
    expect(tokens.findBy('hash', 'same')).toBe(second)
  })

  test('while a write is under way, lookups answer what the collection holds at that moment', async () => {
    const tokens = createTokens()
    const record = await tokens.create({ id: 'a', hash: 'ha', retiredAt: null })
    const seen: unknown[] = []
    const writes = Promise.all([
      tokens.update(record, { data: (draft) => void (draft.retiredAt = 9) }),
      tokens.create({ id: 'b', hash: 'hb', retiredAt: null }),
    ])
    // Look at every microtask turn until both writes settle: the library pushes and replaces records before its
    // promises resolve, and the index must never lag behind it.
    let settled = false
    void writes.then(() => (settled = true))
    while (!settled) {
      expectInStep(tokens, ['a', 'b', 'ha', 'hb'])
      seen.push(tokens.findBy('id', 'a')?.retiredAt)
      await Promise.resolve()
    }
    expect(seen).toContain(9)
    expectInStep(tokens, ['a', 'b', 'ha', 'hb'])
  })

  test('a failed write leaves the index as the collection is', async () => {
    const tokens = createTokens()
    const record = await tokens.create({ id: 'a', hash: 'ha', retiredAt: null })
    // The library prints the schema's complaints before it throws.
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await expect(
      tokens.update(record, { data: (draft) => void ((draft as { hash: unknown }).hash = 42) }),
    ).rejects.toThrow()
    await expect(tokens.create({ id: 'b' } as never)).rejects.toThrow()
    expect(complaints).toHaveBeenCalledTimes(2)
    complaints.mockRestore()
    expectInStep(tokens, ['a', 'b', 'ha'])
    expect(tokens.findBy('hash', 'ha')).toBe(scan(tokens, 'hash', 'ha'))
  })

  test('an update by record finds the record by its key, not by a scan from the oldest record', async () => {
    const tokens = createTokens()
    for (const id of ['a', 'b', 'c']) await tokens.create({ id, hash: `h${id}`, retiredAt: null })
    const last = tokens.findBy('id', 'c')!
    const scans = vi.spyOn(Collection.prototype, 'findFirst')
    const updated = await tokens.update(last, { data: (draft) => void (draft.retiredAt = 7) })
    expect(scans).not.toHaveBeenCalled()
    expect(updated).toMatchObject({ id: 'c', retiredAt: 7 })
    // A record deleted since is not found, as the library's scan would not find it.
    tokens.delete(updated!)
    await expect(tokens.update(last, { data: () => undefined, strict: true })).rejects.toThrow(
      /no record found/,
    )
    expect(scans).not.toHaveBeenCalled()
    scans.mockRestore()
    expectInStep(tokens, ['a', 'b', 'c', 'ha', 'hb', 'hc'])
  })

  test('any sequence of writes keeps every lookup equal to the scan', async () => {
    // A fixed pseudo-random walk (no Math.random: the same sequence every run).
    let seed = 12345
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % below
    }
    const tokens = createTokens()
    const values = ['a', 'b', 'c', 'd', 'ha', 'hb', 'hc', 'hd']
    const pick = () => values[next(values.length)]!
    // Versions of records once returned, current or stale or deleted since: updates by record take any of them.
    const seen: NonNullable<ReturnType<Tokens['findBy']>>[] = []
    for (let step = 0; step < 600; step += 1) {
      const field = next(2) === 0 ? 'id' : 'hash'
      switch (next(7)) {
        case 0:
        case 1:
          seen.push(await tokens.create({ id: pick(), hash: pick(), retiredAt: null }))
          break
        case 2:
          await tokens.update((q) => q.where({ [field]: pick() }), {
            data: (draft) => void (draft[field] = pick()),
          })
          break
        case 6: {
          const record = seen[next(seen.length)]
          if (!record) break
          const updated = await tokens.update(record, { data: (draft) => void (draft[field] = pick()) })
          if (updated) seen.push(updated)
          break
        }
        case 3:
          await tokens.updateMany((q) => q.where({ [field]: pick() }), {
            data: (draft) => void (draft.retiredAt = step),
          })
          break
        case 4:
          tokens.delete((q) => q.where({ [field]: pick() }))
          break
        default:
          if (next(10) === 0) tokens.clear()
          else tokens.deleteMany((q) => q.where({ [field]: pick() }))
      }
      expectInStep(tokens, values)
    }
  })
})
