// /forgot: the e-mail address; a reset code is mailed, then /otp (purpose reset).
import { useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { useServices } from '../../lib/services/services.ts'
import { EmailField, FormMessage, SubmitButton } from './form-kit.tsx'
import { useAuthForm } from './use-auth-form.ts'
import { checkEmail } from './validation.ts'
import { PATHS } from '../../lib/config/paths.ts'

const FIELDS = ['email'] as const

export function ForgotPage() {
  useDocumentTitle('Forgot password')
  const { api, values, now } = useServices()
  const navigate = useNavigate()
  const [email, setEmail] = useState(() => values.authFlow.get()?.email ?? '')
  const form = useAuthForm(FIELDS)

  const onSubmit = form.action(() => ({
    check: { email: checkEmail(email) },
    send: () => api.POST('/api/auth/forgot', { body: { email: email.trim() } }),
    onData: (data) => {
      values.authFlow.set({
        email: email.trim(),
        purpose: 'reset',
        resendAt: now() + data.resend_after * 1000,
      })
      navigate(PATHS.otp)
    },
  }))

  return (
    <section className="auth-card" aria-labelledby="forgot-heading">
      <h1 id="forgot-heading">Forgot your password?</h1>
      <p>Enter your e-mail address and we will send you a code to set a new password.</p>
      <form onSubmit={onSubmit} noValidate>
        <EmailField value={email} onValue={setEmail} error={form.fieldErrors.email} />
        <FormMessage message={form.formError} />
        <SubmitButton busy={form.busy} busyLabel="Sending…">
          Send me a code
        </SubmitButton>
      </form>
      <p className="links">
        <Link to={PATHS.login}>Back to sign in</Link>
      </p>
    </section>
  )
}
