// /signup: name, e-mail, password; then /new/otp to verify the address.
import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { getSafeRedirect } from '../../lib/navigation/safe-redirect.ts'
import { useServices } from '../../lib/services/services.ts'
import { EmailField, Field, FormMessage, SubmitButton } from './form-kit.tsx'
import { useAuthForm } from './use-auth-form.ts'
import { checkEmail, checkName, checkNewPassword } from './validation.ts'
import { PATHS } from '../../lib/config/paths.ts'

const FIELDS = ['name', 'email', 'password'] as const

export function SignupPage() {
  useDocumentTitle('Create an account')
  const { api, values, now } = useServices()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const form = useAuthForm(FIELDS)

  const onSubmit = form.action(() => {
    const body = { name: name.trim(), email: email.trim(), password }
    return {
      check: { name: checkName(name), email: checkEmail(email), password: checkNewPassword(password) },
      send: () => api.POST('/api/auth/signup', { body }),
      onData: (data) => {
        values.authFlow.set({
          email: body.email,
          purpose: 'signup',
          redirect: getSafeRedirect(params.get('redirect')),
          resendAt: now() + data.resend_after * 1000,
        })
        navigate(PATHS.newAccountOtp)
      },
    }
  })

  return (
    <section className="auth-card" aria-labelledby="signup-heading">
      <h1 id="signup-heading">Create an account</h1>
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={name}
          onValue={setName}
          error={form.fieldErrors.name}
          required
        />
        <EmailField value={email} onValue={setEmail} error={form.fieldErrors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={password}
          onValue={setPassword}
          error={form.fieldErrors.password}
          required
        />
        <FormMessage message={form.formError} />
        <SubmitButton busy={form.busy} busyLabel="Creating your account…">
          Create account
        </SubmitButton>
      </form>
      <p className="links">
        Already have an account? <Link to={PATHS.login}>Sign in</Link>
      </p>
    </section>
  )
}
