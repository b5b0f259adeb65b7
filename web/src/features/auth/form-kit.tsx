// The pieces every auth form shows. What a form does with them is use-auth-form.ts.
import { useId, type InputHTMLAttributes, type ReactNode } from 'react'

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
