import { describe, expect, test, vi } from 'vitest'
import { createChunkLoads } from './chunk-loads.ts'

/** A chunk whose import settles when the test says; counts how often it was asked for. */
function createChunk<M>() {
  const settle = { resolve: (_module: M) => {}, reject: (_error: Error) => {} }
  const load = vi.fn(
    () =>
      new Promise<M>((resolve, reject) => {
        settle.resolve = resolve
        settle.reject = reject
      }),
  )
  return { load, settle }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('fetch and peek: the modules already in', () => {
  test('one import in flight however many ask; once in, kept and peeked at without asking again', async () => {
    const chunks = createChunkLoads()
    const { load, settle } = createChunk<{ name: string }>()
    expect(chunks.peek(load)).toBeNull()
    const first = chunks.fetch(load)
    expect(chunks.fetch(load)).toBe(first)
    settle.resolve({ name: 'home' })
    expect(await first).toEqual({ name: 'home' })
    expect(chunks.peek(load)).toEqual({ name: 'home' })
    expect(await chunks.fetch(load)).toEqual({ name: 'home' })
    expect(load).toHaveBeenCalledOnce()
  })

  test('a failure is forgotten: the next fetch asks again', async () => {
    const chunks = createChunkLoads()
    const { load, settle } = createChunk<string>()
    const first = chunks.fetch(load)
    settle.reject(new Error('chunk gone'))
    await expect(first).rejects.toThrow('chunk gone')
    expect(chunks.peek(load)).toBeNull()
    const second = chunks.fetch(load)
    settle.resolve('in')
    expect(await second).toBe('in')
    expect(load).toHaveBeenCalledTimes(2)
  })

  test('each page (each ChunkLoads) keeps its own modules', async () => {
    const { load, settle } = createChunk<string>()
    const one = createChunkLoads()
    const other = createChunkLoads()
    const loaded = one.fetch(load)
    settle.resolve('in')
    await loaded
    expect(one.peek(load)).toBe('in')
    expect(other.peek(load)).toBeNull()
  })
})

describe('awaitWhileShown: the loads the user waits for', () => {
  test('counted while awaited, told to subscribers; handed on while shown', async () => {
    const chunks = createChunkLoads()
    const counts: number[] = []
    chunks.subscribe(() => counts.push(chunks.getSnapshot()))
    const { load, settle } = createChunk<string>()
    const loaded = vi.fn()
    chunks.awaitWhileShown(chunks.fetch(load), loaded, () => {})
    expect(chunks.getSnapshot()).toBe(1)
    settle.resolve('in')
    await flush()
    expect(loaded).toHaveBeenCalledWith('in')
    expect(counts).toEqual([1, 0])
  })

  test('stopped (the component went): no longer counted, its outcome handed to no one, the rule not asked', async () => {
    const reload = vi.fn(() => true)
    const chunks = createChunkLoads({ reloadForFailedChunk: reload })
    const { load, settle } = createChunk<string>()
    const failed = vi.fn()
    const stop = chunks.awaitWhileShown(chunks.fetch(load), () => {}, failed)
    stop()
    expect(chunks.getSnapshot()).toBe(0)
    settle.reject(new Error('chunk gone'))
    await flush()
    expect(failed).not.toHaveBeenCalled()
    expect(reload).not.toHaveBeenCalled()
  })

  test('a failure while awaited: the rule reloads, and the load stays counted until the page goes', async () => {
    const chunks = createChunkLoads({ reloadForFailedChunk: () => true })
    const { load, settle } = createChunk<string>()
    const failed = vi.fn()
    chunks.awaitWhileShown(chunks.fetch(load), () => {}, failed)
    settle.reject(new Error('chunk gone'))
    await flush()
    expect(failed).not.toHaveBeenCalled()
    expect(chunks.getSnapshot()).toBe(1)
  })

  test('a failure the rule does not reload for goes to the caller; the rule is asked once per failed chunk', async () => {
    const reload = vi.fn(() => false)
    const chunks = createChunkLoads({ reloadForFailedChunk: reload })
    const { load, settle } = createChunk<string>()
    const failed = vi.fn()
    const chunk = chunks.fetch(load)
    chunks.awaitWhileShown(chunk, () => {}, failed)
    chunks.awaitWhileShown(chunk, () => {}, failed)
    settle.reject(new Error('chunk gone'))
    await flush()
    expect(reload).toHaveBeenCalledOnce()
    expect(failed).toHaveBeenCalledTimes(2)
    expect(chunks.getSnapshot()).toBe(0)
  })

  test('without a rule (the default), a failed awaited chunk goes to its caller', async () => {
    const chunks = createChunkLoads()
    const failed = vi.fn()
    chunks.awaitWhileShown(Promise.reject(new Error('chunk gone')), () => {}, failed)
    await flush()
    expect(failed).toHaveBeenCalledWith(new Error('chunk gone'))
  })
})
