import { expect, test, vi } from 'vitest'
import { runAfterFirstPaint, type PaintTarget } from './supporting-services.ts'

/** A window whose frames and tasks run only when the test says. */
function createFakeWindow(readyState: DocumentReadyState) {
  const frames: FrameRequestCallback[] = []
  const tasks: (() => void)[] = []
  const target = new EventTarget()
  const win = {
    document: { readyState },
    requestAnimationFrame: (fn: FrameRequestCallback) => frames.push(fn),
    setTimeout: (fn: () => void) => tasks.push(fn),
    addEventListener: target.addEventListener.bind(target),
  } satisfies PaintTarget
  return { win, frames, tasks, load: () => target.dispatchEvent(new Event('load')) }
}

test('a loaded page: after the next frame, in a task of its own', () => {
  const { win, frames, tasks } = createFakeWindow('complete')
  const fn = vi.fn()
  runAfterFirstPaint(fn, win)
  expect(fn).not.toHaveBeenCalled()
  frames.shift()!(0)
  expect(fn).not.toHaveBeenCalled()
  tasks.shift()!()
  expect(fn).toHaveBeenCalledOnce()
})

test('a page still loading: not before its load event', () => {
  const { win, frames, tasks, load } = createFakeWindow('interactive')
  const fn = vi.fn()
  runAfterFirstPaint(fn, win)
  expect(frames).toHaveLength(0)
  load()
  frames.shift()!(0)
  tasks.shift()!()
  expect(fn).toHaveBeenCalledOnce()
})
