import { act, renderHook } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { NETWORK_ERROR_MESSAGE, type ErrorBody } from '../../api/error-messages.ts'
import { useAuthForm, type Answer } from './use-auth-form.ts'

/** A call whose answer is given by hand. */
function heldCall<D>() {
  let answer: (value: Answer<D>) => void = () => {}
  const send = vi.fn(() => new Promise<Answer<D>>((resolve) => (answer = resolve)))
  return { send, answer: (value: Answer<D>) => answer(value) }
}

const refused = (status: number, error: ErrorBody): Answer<never> => ({
  error,
  response: new Response(null, { status }),
})

test('failed checks show inline and send nothing', () => {
  const { result } = renderHook(() => useAuthForm(['email']))
  const send = vi.fn()
  act(() =>
    result.current.action(() => ({
      check: { email: 'Enter your e-mail address.' },
      send,
      onData: vi.fn(),
    }))(),
  )
  expect(result.current.fieldErrors).toEqual({ email: 'Enter your e-mail address.' })
  expect(send).not.toHaveBeenCalled()
})

test('busy while the call runs; a second press meanwhile sends nothing; the data goes to onData', async () => {
  const { result } = renderHook(() => useAuthForm(['email']))
  const call = heldCall<{ ok: true }>()
  const onData = vi.fn()
  const submit = () => result.current.action(() => ({ check: { email: null }, send: call.send, onData }))()
  act(submit)
  expect(result.current.busy).toBe(true)
  act(submit)
  expect(call.send).toHaveBeenCalledTimes(1)
  await act(async () => call.answer({ data: { ok: true }, response: new Response(null, { status: 200 }) }))
  expect(onData).toHaveBeenCalledWith({ ok: true })
  expect(result.current.busy).toBe(false)
})

test("validation_failed: the form's own fields inline, the others in the form message", async () => {
  const { result } = renderHook(() => useAuthForm(['email', 'password']))
  const call = heldCall<never>()
  act(() => result.current.action(() => ({ send: call.send, onData: vi.fn() }))())
  const body = {
    error: 'validation_failed',
    fields: { password: 'Too common.', purpose: 'Unknown purpose.' },
  }
  await act(async () => call.answer(refused(400, body)))
  expect(result.current.fieldErrors).toEqual({ password: 'Too common.' })
  expect(result.current.formError).toBe('Unknown purpose.')
})

test('a failure the screen handles itself skips the form message; a network failure shows its own', async () => {
  const { result } = renderHook(() => useAuthForm(['email']))
  const call = heldCall<never>()
  const onFailure = vi.fn(() => true)
  act(() => result.current.action(() => ({ send: call.send, onData: vi.fn(), onFailure }))())
  await act(async () => call.answer(refused(403, { error: 'unverified' })))
  expect(onFailure).toHaveBeenCalledTimes(1)
  expect(result.current.formError).toBeNull()
  const failing = () => Promise.reject(new TypeError('Failed to fetch'))
  await act(async () => result.current.action(() => ({ send: failing, onData: vi.fn() }))())
  expect(result.current.formError).toBe(NETWORK_ERROR_MESSAGE)
})

test('an answer that arrives once the screen is gone is ignored', async () => {
  const { result, unmount } = renderHook(() => useAuthForm(['email']))
  const call = heldCall<{ ok: true }>()
  const onData = vi.fn()
  act(() => result.current.action(() => ({ send: call.send, onData }))())
  unmount()
  await act(async () => call.answer({ data: { ok: true }, response: new Response(null, { status: 200 }) }))
  expect(onData).not.toHaveBeenCalled()
})
