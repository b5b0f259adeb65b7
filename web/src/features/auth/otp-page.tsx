// /otp and /new/otp: the one-time code. A `signup` or `login` code signs in; a `reset` code leads on to
// /update_password. The e-mail and purpose come from the previous screen (sessionStorage `authFlow`).
import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { getSafeRedirect } from '../../lib/navigation/safe-redirect.ts'
import { useServices } from '../../lib/services/services.ts'
import type { AuthFlow } from '../../session/token-storage.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { EmailField, Field, FormMessage, SubmitButton } from './form-kit.tsx'
import { useAuthForm } from './use-auth-form.ts'
import { checkCode, checkEmail, describeFailure, normalizeCode } from './validation.ts'
import { PATHS } from '../../lib/config/paths.ts'

const FIELDS = ['email', 'code'] as const
const HEADINGS = {
  signup: 'Verify your e-mail address',
  login: 'Enter your sign-in code',
  reset: 'Enter your reset code',
} as const

/** Seconds until `until` (epoch ms), ticking once a second while above zero. */
function useSecondsLeft(until: number | undefined, now: () => number): number {
  const left = () => (until === undefined ? 0 : Math.max(0, Math.ceil((until - now()) / 1000)))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    setSeconds(left())
    if (until === undefined) return
    const id = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(id)
  }, [until])
  return seconds
}

export function OtpPage({ variant }: { variant: 'new' | 'existing' }) {
  const { api, values, now } = useServices()
  const store = useSessionStore()
  const navigate = useNavigate()
  const [flow, setFlow] = useState<AuthFlow | null>(() => values.authFlow.get())
  const purpose: AuthFlow['purpose'] =
    variant === 'new' ? 'signup' : flow?.purpose === 'reset' ? 'reset' : 'login'
  useDocumentTitle(HEADINGS[purpose])
  const [email, setEmail] = useState(flow?.email ?? '')
  const [code, setCode] = useState('')
  const [notice, setNotice] = useState<string | null>(null)
  const form = useAuthForm(FIELDS)
  const secondsLeft = useSecondsLeft(flow?.resendAt, now)

  const saveFlow = (next: AuthFlow) => {
    values.authFlow.set(next)
    setFlow(next)
  }

  const onSubmit = form.action(() => {
    const body = { email: email.trim(), code, purpose }
    const generation = store.getGeneration()
    return {
      check: { email: checkEmail(email), code: checkCode(code) },
      send: () => api.POST('/api/auth/otp/verify', { body }),
      onData: (data) => {
        if ('reset_token' in data) {
          saveFlow({ ...flow, email: body.email, purpose: 'reset', resetToken: data.reset_token })
          navigate(PATHS.updatePassword)
          return
        }
        values.authFlow.clear()
        store.signIn(data, { generation, redirect: getSafeRedirect(flow?.redirect) })
      },
    }
  })

  /** Keeps the next allowed resend, from the answer's `resend_after` or the refusal's `retry_after`. */
  const saveResendAt = (wait: number | undefined) =>
    saveFlow({
      ...flow,
      email: email.trim(),
      purpose,
      ...(wait === undefined ? {} : { resendAt: now() + wait * 1000 }),
    })

  const onResend = form.action(() => ({
    check: { email: checkEmail(email) },
    send: () => {
      setNotice(null)
      return api.POST('/api/auth/otp/send', { body: { email: email.trim(), purpose } })
    },
    onData: (data) => {
      saveResendAt(data.resend_after)
      setNotice(`We sent a new code to ${email.trim()}.`)
    },
    onFailure: ({ error, response }) => {
      saveResendAt(error?.retry_after)
      form.setFormError(describeFailure(error ?? null) || `Request failed (${response.status}).`)
      return true
    },
  }))

  return (
    <section className="auth-card" aria-labelledby="otp-heading">
      <h1 id="otp-heading">{HEADINGS[purpose]}</h1>
      <p>We sent a 6-digit code to {flow?.email ? <strong>{flow.email}</strong> : 'your e-mail address'}.</p>
      <form onSubmit={onSubmit} noValidate>
        <EmailField value={email} onValue={setEmail} error={form.fieldErrors.email} />
        <Field
          label="6-digit code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          value={code}
          onValue={(value) => setCode(normalizeCode(value))}
          error={form.fieldErrors.code}
          required
        />
        <FormMessage message={form.formError} />
        <FormMessage message={notice} tone="info" />
        <SubmitButton busy={form.busy} busyLabel="Checking…">
          Verify
        </SubmitButton>
      </form>
      <p className="links">
        <button type="button" onClick={onResend} disabled={form.busy || secondsLeft > 0}>
          {secondsLeft > 0 ? `Resend code in ${secondsLeft} s` : 'Resend code'}
        </button>{' '}
        · <Link to={PATHS.login}>Back to sign in</Link>
      </p>
    </section>
  )
}

export function NewAccountOtpPage() {
  return <OtpPage variant="new" />
}

export function ExistingAccountOtpPage() {
  return <OtpPage variant="existing" />
}
