// /update_password: a new password, twice. After a reset code it sends the reset token; a signed-in user without
// one gives the current password instead (openapi `UpdatePasswordRequest`).
import { useState } from 'react'
import { Link, Navigate } from 'react-router-dom'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { useServices } from '../../lib/services/services.ts'
import { useSession, useSessionStore } from '../../session/use-session.ts'
import { Field, FormMessage, SubmitButton } from './form-kit.tsx'
import { useAuthForm } from './use-auth-form.ts'
import { checkNewPassword } from './validation.ts'
import { PATHS } from '../../lib/config/paths.ts'

const FIELDS = ['current_password', 'password', 'confirm'] as const

export function UpdatePasswordPage() {
  useDocumentTitle('Set a new password')
  const { api, values } = useServices()
  const { ready, isLoggedIn } = useSession()
  const store = useSessionStore()
  const [resetToken] = useState(() => values.authFlow.get()?.resetToken ?? null)
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const form = useAuthForm(FIELDS)
  const withCurrent = resetToken === null && isLoggedIn
  // Whether a signed-in user opened this page. If their session ends here, the page leaves quietly for /login.
  const [shownSignedIn, setShownSignedIn] = useState(false)
  if (withCurrent && !shownSignedIn) setShownSignedIn(true)

  if (resetToken === null && !isLoggedIn) {
    if (shownSignedIn) return <Navigate to={PATHS.login} replace />
    if (!ready) return null // the layout's loading bar shows until the session is known
    return (
      <section className="auth-card" aria-labelledby="update-heading">
        <h1 id="update-heading">Set a new password</h1>
        <p role="alert">This password reset has expired or was not started here.</p>
        <p className="links">
          <Link to={PATHS.forgot}>Start a password reset</Link> ·{' '}
          <Link to={PATHS.login}>Back to sign in</Link>
        </p>
      </section>
    )
  }

  const onSubmit = form.action(() => {
    const body = withCurrent
      ? { current_password: current, password }
      : { reset_token: resetToken ?? '', password }
    const generation = store.getGeneration()
    return {
      check: {
        current_password: withCurrent && current === '' ? 'Enter your current password.' : null,
        password: checkNewPassword(password),
        confirm: confirm !== password ? 'The passwords do not match.' : null,
      },
      send: () => api.POST('/api/auth/update_password', { body }),
      onData: () => {
        values.authFlow.clear()
        // Toasts and goes on, unless the session changed while the call was in flight.
        store.passwordUpdated(generation, withCurrent ? 'signed-in' : 'reset')
      },
    }
  })

  return (
    <section className="auth-card" aria-labelledby="update-heading">
      <h1 id="update-heading">Set a new password</h1>
      <form onSubmit={onSubmit} noValidate>
        {withCurrent ? (
          <Field
            label="Current password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            value={current}
            onValue={setCurrent}
            error={form.fieldErrors.current_password}
            required
          />
        ) : null}
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={password}
          onValue={setPassword}
          error={form.fieldErrors.password}
          required
        />
        <Field
          label="Repeat the new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onValue={setConfirm}
          error={form.fieldErrors.confirm}
          required
        />
        <FormMessage message={form.formError} />
        {form.formError && !withCurrent ? (
          <p className="links">
            <Link to={PATHS.forgot}>Start again</Link>
          </p>
        ) : null}
        <SubmitButton busy={form.busy} busyLabel="Saving…">
          Save password
        </SubmitButton>
      </form>
    </section>
  )
}
