// The process page's optimistic updates. Pure: imports nothing of React or fetch.
// An answer touches only fields that still hold its change's value, so an earlier answer never overwrites a later change.
import type { Step, StepPatch } from '../../lib/process/process-steps.ts'

type Field = keyof StepPatch

const fieldsOf = (patch: StepPatch) =>
  (Object.keys(patch) as Field[]).filter((field) => patch[field] !== undefined)

function updateStep(steps: readonly Step[], id: string, update: (step: Step) => Step): Step[] {
  return steps.map((step) => (step.id === id ? update(step) : step))
}

/**
 * The change, shown at once.
 * @example
 * applyStepPatch(steps, 's1', { status: 'done' })
 */
export function applyStepPatch(steps: readonly Step[], id: string, patch: StepPatch): Step[] {
  return updateStep(steps, id, (step) => ({ ...step, ...patch }))
}

/** The server's answer for the fields the change touched (its normalised date-time, say). */
export function confirmStepPatch(steps: readonly Step[], id: string, patch: StepPatch, answer: Step): Step[] {
  return updateStep(steps, id, (step) => {
    const next = { ...step }
    for (const field of fieldsOf(patch)) {
      if (step[field] === patch[field]) Object.assign(next, { [field]: answer[field] })
    }
    return next
  })
}

/** The change undone: each field it touched goes back to what it was before. */
export function rollbackStepPatch(
  steps: readonly Step[],
  id: string,
  patch: StepPatch,
  before: Step,
): Step[] {
  return updateStep(steps, id, (step) => {
    const next = { ...step }
    for (const field of fieldsOf(patch)) {
      if (step[field] === patch[field]) Object.assign(next, { [field]: before[field] })
    }
    return next
  })
}
