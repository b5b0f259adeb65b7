import { describe, expect, test } from 'vitest'
import type { Step } from '../../lib/process/process-steps.ts'
import { applyStepPatch, confirmStepPatch, rollbackStepPatch } from './step-updates.ts'

const step = (id: string, over: Partial<Step> = {}): Step => ({
  id,
  title: `Step ${id}`,
  status: 'todo',
  scheduled_at: null,
  ...over,
})
const steps = [step('a'), step('b', { status: 'in_progress', scheduled_at: '2030-01-01T10:00:00.000Z' })]

describe('optimistic updates of the steps', () => {
  test('a change shows at once on its step only', () => {
    expect(applyStepPatch(steps, 'b', { status: 'done' })).toEqual([
      steps[0],
      { ...steps[1], status: 'done' },
    ])
  })

  test("the server's answer confirms the fields the change touched", () => {
    const patch = { scheduled_at: '2030-05-01T09:30:00+02:00' }
    const shown = applyStepPatch(steps, 'a', patch)
    const answer = { ...step('a'), scheduled_at: '2030-05-01T07:30:00.000Z', title: 'Renamed elsewhere' }
    expect(confirmStepPatch(shown, 'a', patch, answer)).toEqual([
      { ...steps[0], scheduled_at: '2030-05-01T07:30:00.000Z' },
      steps[1],
    ])
  })

  test('a failure undoes the change', () => {
    const patch = { status: 'done', scheduled_at: null } as const
    const shown = applyStepPatch(steps, 'b', patch)
    expect(rollbackStepPatch(shown, 'b', patch, steps[1]!)).toEqual(steps)
  })

  test('an earlier change that fails does not undo a later one to the same field', () => {
    const first = { status: 'in_progress' } as const
    const second = { status: 'done' } as const
    let shown = applyStepPatch(steps, 'a', first)
    shown = applyStepPatch(shown, 'a', second)
    shown = rollbackStepPatch(shown, 'a', first, steps[0]!)
    expect(shown[0]?.status).toBe('done')
    shown = confirmStepPatch(shown, 'a', first, { ...steps[0]!, status: 'in_progress' })
    expect(shown[0]?.status).toBe('done')
  })

  test('undoing one field leaves another change to the step alone', () => {
    const status = { status: 'done' } as const
    const schedule = { scheduled_at: '2031-01-01T00:00:00.000Z' }
    let shown = applyStepPatch(steps, 'a', status)
    shown = applyStepPatch(shown, 'a', schedule)
    shown = rollbackStepPatch(shown, 'a', status, steps[0]!)
    expect(shown[0]).toEqual({ ...steps[0], scheduled_at: '2031-01-01T00:00:00.000Z' })
  })
})
