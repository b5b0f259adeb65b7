// The pieces every auth form shares: a labelled field with its inline error, a busy submit button that cannot
// submit twice, and the call runner that turns a failed answer into field and form errors.
import { useCallback, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react'
import { NETWORK_ERROR_MESSAGE, type ErrorBody } from '../../api/error-messages.ts'
import { describeFailure, type FieldErrors } from './validation.ts'

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string
  name: string
  value: string
  onValue: (value: string) => void
  error?: string | undefined
  hint?: ReactNode
}

export function Field({ label, name, value, onValue, error, hint, ...input }: FieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** The e-mail field every auth form asks for, declared once. */
export function EmailField(props: Pick<FieldProps, 'value' | 'onValue' | 'error'> & { autoFocus?: boolean }) {
  return <Field label="E-mail" name="email" type="email" autoComplete="email" required {...props} />
}

export function SubmitButton({
  busy,
  children,
  busyLabel,
}: {
  busy: boolean
  children: ReactNode
  busyLabel: string
}) {
  return (
    <button type="submit" disabled={busy} aria-busy={busy}>
      {busy ? busyLabel : children}
    </button>
  )
}

export function FormMessage({
  message,
  tone = 'error',
}: {
  message: string | null
  tone?: 'error' | 'info'
}) {
  if (!message) return null
  return (
    <p className={`form-message ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {message}
    </p>
  )
}

export interface Failure {
  body: ErrorBody | null
  status: number
}

/**
 * Runs one call at a time: `busy` while it runs, a second run is ignored (no double submission), and a failure
 * becomes inline field errors (the server's `fields`) and a form message.
 */
export function useFormRunner(knownFields: readonly string[]) {
  const running = useRef(false)
  const [busy, setBusy] = useState(false)
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)

  const showFailure = useCallback(
    (failure: Failure, message?: string) => {
      const fields = failure.body?.fields ?? {}
      const inline = Object.fromEntries(Object.entries(fields).filter(([name]) => knownFields.includes(name)))
      setFieldErrors(inline)
      const others = Object.entries(fields).filter(([name]) => !knownFields.includes(name))
      setFormError(
        message ?? (others.length > 0 ? others.map(([, m]) => m).join(' ') : describeFailure(failure.body)),
      )
    },
    [knownFields],
  )

  const run = useCallback(async (task: () => Promise<void>) => {
    if (running.current) return
    running.current = true
    setBusy(true)
    setFormError(null)
    try {
      await task()
    } catch {
      setFormError(NETWORK_ERROR_MESSAGE)
    } finally {
      running.current = false
      setBusy(false)
    }
  }, [])

  return { busy, run, fieldErrors, setFieldErrors, formError, setFormError, showFailure }
}
