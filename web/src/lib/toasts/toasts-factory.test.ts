// createToasts (toasts.ts) makes independent objects: each keeps its own area, ids and waiting toasts.
import { expect, test } from 'vitest'
import { createToasts, type ToasterChunk } from './toasts.ts'
import type { ToastApi } from './toast-raise.ts'

/** A toast area's chunk whose `toast` records each call as "kind: message#id". */
function createFakeArea() {
  const shown: string[] = []
  const record = (kind: string) => (message: unknown, options?: { id?: string }) => {
    shown.push(`${kind}: ${String(message)}#${options?.id}`)
    return options?.id ?? ''
  }
  const toast = Object.assign(record('blank'), {
    success: record('success'),
    error: record('error'),
    promise: (promise: Promise<unknown>, messages: { loading: string }) => {
      shown.push(`promise: ${messages.loading}`)
      return promise
    },
    dismiss: () => {},
  }) as unknown as ToastApi
  const chunk: ToasterChunk = { toast, Toaster: () => null }
  return { chunk, shown }
}

test('with its area in, a toast is raised at once, under an id of its own unless given one', () => {
  const { chunk, shown } = createFakeArea()
  const toasts = createToasts({ area: chunk })
  expect(toasts.getSnapshot()).toBe(chunk.Toaster)
  const first = toasts.show({ kind: 'error', message: 'Session expired. Please login again.' })
  toasts.show({ kind: 'success', message: 'Saved', id: 'saved' })
  void toasts.showPromise(Promise.resolve(), { loading: 'Saving…', success: 'Saved', error: 'Not saved' })
  expect(first).toMatch(/^toast-\d+$/)
  expect(shown).toEqual([
    `error: Session expired. Please login again.#${first}`,
    'success: Saved#saved',
    'promise: Saving…',
  ])
})

test('two pages, two objects: one area coming in neither connects nor raises the other’s toasts', async () => {
  const { chunk, shown } = createFakeArea()
  let arrive = (_chunk: ToasterChunk) => {}
  const loaded = createToasts({ loadArea: () => new Promise((resolve) => (arrive = resolve)) })
  const other = createToasts({ loadArea: () => new Promise(() => {}) })
  loaded.show({ kind: 'info', message: 'Mine' })
  other.show({ kind: 'info', message: 'Theirs' })
  let told = 0
  loaded.subscribe(() => (told += 1))
  arrive(chunk)
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(told).toBe(1)
  expect(loaded.getSnapshot()).toBe(chunk.Toaster)
  expect(other.getSnapshot()).toBeNull()
  expect(shown).toEqual(['blank: Mine#toast-1'])
})
