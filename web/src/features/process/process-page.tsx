// /process: the learner's steps, changed optimistically and undone with a toast if the server refuses.
// Past ~150 lines only by markup.
import { useCallback, useId } from 'react'
import { lazyScreen } from '../../lib/navigation/lazy-screen.tsx'
import { getErrorMessage, NETWORK_ERROR_MESSAGE } from '../../api/error-messages.ts'
import { formatDateTime } from '../../lib/time/date-time.ts'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import {
  getNextStep,
  STATUS_LABELS,
  type Step,
  type StepPatch,
  type StepStatus,
} from '../../lib/process/process-steps.ts'
import { useServices } from '../../lib/services/services.ts'
import { answerOf, useLoad, type Loader } from '../../lib/services/use-load.ts'
import { applyStepPatch, confirmStepPatch, rollbackStepPatch } from './step-updates.ts'

// The date picker is a chunk of its own, so a visitor the guard turns away never loads it.
// Loaded like a screen (lib/navigation/lazy-screen.tsx), so a failure after leaving /process reloads nothing.
const SchedulePicker = lazyScreen(
  () => import('./schedule-picker.tsx'),
  (module) => module.SchedulePicker,
  { placeholder: <span aria-busy="true">Loading the date picker…</span> },
)

const loadSteps: Loader<Step[]> = (api) => answerOf(api.GET('/api/process'), (data) => data.steps)

/** The steps, and a change that shows at once, is sent, and is confirmed or undone by the answer. */
function useSteps() {
  const { api, toasts } = useServices()
  const { state, reload, update } = useLoad(loadSteps)

  const updateStep = useCallback(
    async (before: Step, patch: StepPatch) => {
      update((current) => applyStepPatch(current, before.id, patch))
      let message: string | null
      try {
        const { data, error, response } = await api.PATCH('/api/process/steps/{id}', {
          params: { path: { id: before.id } },
          body: patch,
        })
        if (data) return update((current) => confirmStepPatch(current, before.id, patch, data))
        // A 401 that ended the session has its own toast (the session store's); do not add another.
        message = response.status === 401 ? null : getErrorMessage(error)
      } catch {
        message = NETWORK_ERROR_MESSAGE
      }
      update((current) => rollbackStepPatch(current, before.id, patch, before))
      if (message) toasts.show({ kind: 'error', message: `Could not save “${before.title}”. ${message}` })
    },
    [api, toasts, update],
  )

  return { state, reload, updateStep }
}

function StepItem({
  step,
  current,
  onUpdate,
}: {
  step: Step
  /** The first step not done: marked as the current one. */
  current: boolean
  onUpdate: (before: Step, patch: StepPatch) => void
}) {
  const id = useId()
  const scheduled = step.scheduled_at ? new Date(step.scheduled_at) : null
  return (
    <li
      className="step"
      data-status={step.status}
      aria-current={current ? 'step' : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div className="step-head">
        <h2 id={`${id}-title`}>{step.title}</h2>
        <span className="step-state">{current ? 'Current step' : STATUS_LABELS[step.status]}</span>
      </div>
      {step.description ? <p>{step.description}</p> : null}
      <div className="step-controls">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          aria-label={`Status of “${step.title}”`}
          value={step.status}
          onChange={(event) => onUpdate(step, { status: event.target.value as StepStatus })}
        >
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-schedule`}>Schedule</label>
        <SchedulePicker
          id={`${id}-schedule`}
          label={`Schedule “${step.title}”`}
          value={scheduled}
          onCommit={(date) => onUpdate(step, { scheduled_at: date ? date.toISOString() : null })}
        />
        {step.scheduled_at ? (
          <button
            type="button"
            aria-label={`Clear the schedule of “${step.title}”`}
            onClick={() => onUpdate(step, { scheduled_at: null })}
          >
            Clear
          </button>
        ) : null}
      </div>
      <p className="step-when">
        {step.scheduled_at ? (
          <>
            Scheduled: <time dateTime={step.scheduled_at}>{formatDateTime(step.scheduled_at)}</time>
          </>
        ) : (
          'Not scheduled yet.'
        )}
      </p>
    </li>
  )
}

export function ProcessPage() {
  useDocumentTitle('Process')
  const { state: load, reload, updateStep } = useSteps()
  const steps = load.status === 'ready' ? load.data : []
  const done = steps.filter((step) => step.status === 'done').length
  const current = getNextStep(steps)
  return (
    <section aria-labelledby="process-heading">
      <h1 id="process-heading">Process</h1>
      {load.status === 'loading' ? (
        <p aria-busy="true">Loading your steps…</p>
      ) : load.status === 'failed' ? (
        <>
          <p role="alert">{load.message}</p>
          <button type="button" onClick={reload}>
            Try again
          </button>
        </>
      ) : steps.length === 0 ? (
        <p>You have no steps yet. They appear here once your enrolment starts.</p>
      ) : (
        <>
          <p>
            {done} of {steps.length} steps done.
          </p>
          <ol className="steps">
            {steps.map((step) => (
              <StepItem
                key={step.id}
                step={step}
                current={step === current}
                onUpdate={(before, patch) => void updateStep(before, patch)}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
