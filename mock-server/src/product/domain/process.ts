// The learner's enrolment process: the same ordered steps for every new account, each with a status
// and an optional scheduled date-time.
import type { DomainContext } from './context.ts'
import type { StepRecord } from '../storage/records.ts'

const STEP_TEMPLATE: readonly { title: string; description: string; status: StepRecord['status'] }[] = [
  { title: 'Create your account', description: 'Sign up and confirm your e-mail address.', status: 'done' },
  {
    title: 'Complete your learner profile',
    description: 'Tell us about your goals and experience.',
    status: 'todo',
  },
  {
    title: 'Choose your first course',
    description: 'Pick a course from the catalogue to start with.',
    status: 'todo',
  },
  {
    title: 'Schedule your orientation call',
    description: 'Book a 30-minute call with a mentor.',
    status: 'todo',
  },
  {
    title: 'Attend the orientation call',
    description: 'Meet your mentor and plan your first weeks.',
    status: 'todo',
  },
  {
    title: 'Start your first lesson',
    description: 'Open the course and complete lesson one.',
    status: 'todo',
  },
]

export async function createStepsFor(ctx: DomainContext, userId: string): Promise<void> {
  await ctx.store.steps.createAll(
    STEP_TEMPLATE.map((step, position) => ({
      id: ctx.random.id(),
      userId,
      position,
      scheduled_at: null,
      ...step,
    })),
  )
}

export type PublicStep = Omit<StepRecord, 'userId' | 'position'>

export function toPublicStep({ userId: _userId, position: _position, ...step }: StepRecord): PublicStep {
  return step
}

export async function listSteps(ctx: DomainContext, userId: string): Promise<PublicStep[]> {
  return (await ctx.store.steps.list(userId)).map(toPublicStep)
}

export async function updateStep(
  ctx: DomainContext,
  userId: string,
  stepId: string,
  patch: { status?: StepRecord['status']; scheduled_at?: string | null },
): Promise<PublicStep | null> {
  const updated = await ctx.store.steps.update(userId, stepId, {
    ...(patch.status !== undefined && { status: patch.status }),
    ...(patch.scheduled_at !== undefined && {
      scheduled_at: patch.scheduled_at === null ? null : new Date(patch.scheduled_at).toISOString(),
    }),
  })
  return updated ? toPublicStep(updated) : null
}
