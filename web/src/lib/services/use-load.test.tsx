import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect, test } from 'vitest'
import { getErrorMessage, NETWORK_ERROR_MESSAGE } from '../../api/error-messages.ts'
import { createStubApi } from '../../test/page-harness.tsx'
import { ServicesProvider, type Services } from './services.ts'
import { answerOf, useLoad, type LoadResult, type Loader } from './use-load.ts'

const services = { api: createStubApi({}) } as Services
const wrapper = ({ children }: { children?: ReactNode }) => (
  <ServicesProvider services={services}>{children}</ServicesProvider>
)

/** A loader whose runs are settled by hand, in any order. */
function heldLoader<T>() {
  const runs: { settle: (result: LoadResult<T>) => void; show: (partial: T) => void }[] = []
  const load: Loader<T> = (_api, show) => new Promise((resolve) => runs.push({ settle: resolve, show }))
  return { load, runs }
}

test('loading, then the data; a failure shows its message; reload starts over', async () => {
  const { load, runs } = heldLoader<string>()
  const { result } = renderHook(() => useLoad(load), { wrapper })
  expect(result.current.state).toEqual({ status: 'loading' })
  await act(async () => runs[0]?.settle({ message: 'Nope.' }))
  expect(result.current.state).toEqual({ status: 'failed', message: 'Nope.' })
  act(() => result.current.reload())
  expect(result.current.state).toEqual({ status: 'loading' })
  await act(async () => runs[1]?.settle({ data: 'articles' }))
  expect(result.current.state).toEqual({ status: 'ready', data: 'articles' })
})

test('a first part shows while the rest loads; update changes the data shown', async () => {
  const { load, runs } = heldLoader<string[]>()
  const { result } = renderHook(() => useLoad(load), { wrapper })
  act(() => runs[0]?.show(['user']))
  expect(result.current.state).toEqual({ status: 'ready', data: ['user'] })
  await act(async () => runs[0]?.settle({ data: ['user', 'details'] }))
  act(() => result.current.update((data) => [...data, 'changed']))
  expect(result.current.state).toEqual({ status: 'ready', data: ['user', 'details', 'changed'] })
})

test('only the latest run is applied: an earlier answer that arrives late is dropped', async () => {
  const { load, runs } = heldLoader<string>()
  const { result } = renderHook(() => useLoad(load), { wrapper })
  act(() => result.current.reload())
  await act(async () => runs[1]?.settle({ data: 'new' }))
  await act(async () => runs[0]?.settle({ data: 'old' }))
  act(() => runs[0]?.show('old part'))
  expect(result.current.state).toEqual({ status: 'ready', data: 'new' })
})

test('an answer after unmount is ignored; a loader that throws fails with the network message', async () => {
  const held = heldLoader<string>()
  const first = renderHook(() => useLoad(held.load), { wrapper })
  first.unmount()
  await act(async () => held.runs[0]?.settle({ data: 'late' }))
  expect(first.result.current.state).toEqual({ status: 'loading' })
  const throwing: Loader<string> = async () => {
    throw new TypeError('Failed to fetch')
  }
  const second = renderHook(() => useLoad(throwing), { wrapper })
  await waitFor(() =>
    expect(second.result.current.state).toEqual({ status: 'failed', message: NETWORK_ERROR_MESSAGE }),
  )
})

test('answerOf: the picked data, or the error-message table sentence', async () => {
  const response = new Response(null, { status: 200 })
  expect(await answerOf(Promise.resolve({ data: { n: 1 }, response }), (data) => data.n)).toEqual({ data: 1 })
  const refused = await answerOf(Promise.resolve({ error: { error: 'token_invalid' } }), () => 1)
  expect(refused).toEqual({ message: getErrorMessage({ error: 'token_invalid' }) })
  expect(await answerOf(Promise.resolve({ data: null }), (data) => data)).toEqual({
    message: getErrorMessage(undefined),
  })
})
