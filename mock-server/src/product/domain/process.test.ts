// The enrolment process's steps: a scheduled date-time is kept in UTC, and null clears it.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { createStepsFor, listSteps, updateStep } from './process.ts'

test('a step’s scheduled date-time is kept as UTC, and null clears it', async () => {
  const core = createMockCore({ seed: false, hasher: { memoryCost: 1024, timeCost: 1 } })
  await core.ready
  const ctx = core.ops.domain
  await createStepsFor(ctx, 'user-1')
  const [, step] = await listSteps(ctx, 'user-1')
  const scheduled = await updateStep(ctx, 'user-1', step!.id, { scheduled_at: '2030-01-01T10:00:00+02:00' })
  expect(scheduled).toMatchObject({ id: step!.id, scheduled_at: '2030-01-01T08:00:00.000Z' })
  const cleared = await updateStep(ctx, 'user-1', step!.id, { scheduled_at: null })
  expect(cleared).toEqual({ ...step, scheduled_at: null })
})
