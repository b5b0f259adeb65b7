// The learner's process steps. Two features share it, so it lives below them. Pure: imports nothing of React.
import type { components } from '#api/openapi.gen.ts'

export type Step = components['schemas']['Step']
export type StepPatch = components['schemas']['StepPatch']
export type StepStatus = Step['status']

export const STATUS_LABELS: Record<StepStatus, string> = {
  todo: 'To do',
  in_progress: 'In progress',
  done: 'Done',
}

/**
 * The next step to take: the first one not done, in order; null when all are done.
 * @example
 * getNextStep([{ status: 'done', ... }, { status: 'todo', title: 'Choose a course', ... }])?.title // 'Choose a course'
 */
export function getNextStep(steps: readonly Step[]): Step | null {
  return steps.find((step) => step.status !== 'done') ?? null
}
