import { expect, test } from 'vitest'
import { getNextStep, type Step } from './process-steps.ts'

const step = (id: string, status: Step['status']): Step => ({ id, title: id, status, scheduled_at: null })

test.each([
  {
    name: 'the first not done, in order',
    steps: [step('a', 'done'), step('b', 'todo'), step('c', 'in_progress')],
    next: 'b',
  },
  {
    name: 'one in progress counts as not done',
    steps: [step('a', 'in_progress'), step('b', 'todo')],
    next: 'a',
  },
  { name: 'all done: none', steps: [step('a', 'done')], next: null },
  { name: 'no steps: none', steps: [], next: null },
] as const)('$name', ({ steps, next }) => {
  expect(getNextStep(steps)?.id ?? null).toBe(next)
})
