// /login: e-mail and password; or a code by e-mail; or the external sign-in. Eagerly loaded: keep it light.
import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { getSafeRedirect } from '../../lib/navigation/safe-redirect.ts'
import { useServices } from '../../lib/services/services.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { Field, FormMessage, SubmitButton } from './form-kit.tsx'
import { useAuthForm } from './use-auth-form.ts'
import { checkEmail } from './validation.ts'
import { PATHS } from '../../lib/config/paths.ts'

const FIELDS = ['email', 'password'] as const

export function LoginPage() {
  useDocumentTitle('Sign in')
  const { api, values, now, randomState, assignLocation, config } = useServices()
  const store = useSessionStore()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const redirect = getSafeRedirect(params.get('redirect'))
  const [email, setEmail] = useState(() => values.authFlow.get()?.email ?? '')
  const [password, setPassword] = useState('')
  const form = useAuthForm(FIELDS)

  const sendCode = (purpose: 'login' | 'signup') =>
    api.POST('/api/auth/otp/send', { body: { email: email.trim(), purpose } })

  const handOff = (purpose: 'login' | 'signup', resendAfter: number | undefined) =>
    values.authFlow.set({
      email: email.trim(),
      purpose,
      redirect,
      ...(resendAfter === undefined ? {} : { resendAt: now() + resendAfter * 1000 }),
    })

  const onSubmit = form.action(() => {
    const generation = store.getGeneration()
    return {
      check: { email: checkEmail(email), password: password === '' ? 'Enter your password.' : null },
      send: () => api.POST('/api/auth/login', { body: { email: email.trim(), password } }),
      onData: (data) => {
        values.authFlow.clear()
        store.signIn(data, { generation, redirect }) // and goes on to `redirect`, unless the session changed meanwhile
      },
      onFailure: async ({ error, response }) => {
        if (response.status !== 403 || error?.error !== 'unverified') return false
        // The account exists but is not verified: send a code (a cooldown answer is fine) and go verify.
        const sent = await sendCode('signup')
        handOff('signup', sent.data?.resend_after ?? sent.error?.retry_after)
        navigate(PATHS.newAccountOtp)
        return true
      },
    }
  })

  const onEmailCode = form.action(() => ({
    check: { email: checkEmail(email) },
    send: () => sendCode('login'),
    onData: (data) => {
      handOff('login', data.resend_after)
      navigate(PATHS.otp)
    },
  }))

  const onSingleSignOn = () => {
    const state = randomState()
    values.ssoState.set({ state, redirect })
    const query = new URLSearchParams({ state, redirect_uri: PATHS.callback })
    assignLocation(`${config.apiBase}/api/auth/external/authorize?${query}`)
  }

  return (
    <section className="auth-card" aria-labelledby="login-heading">
      <h1 id="login-heading">Sign in</h1>
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          error={form.fieldErrors.email}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          error={form.fieldErrors.password}
          required
        />
        <FormMessage message={form.formError} />
        <SubmitButton busy={form.busy} busyLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <div className="alternatives">
        <button type="button" onClick={onEmailCode} disabled={form.busy}>
          E-mail me a code
        </button>
        {config.externalSignIn ? (
          <button type="button" onClick={onSingleSignOn} disabled={form.busy}>
            Continue with single sign-on
          </button>
        ) : null}
      </div>
      <p className="links">
        <Link to={PATHS.forgot}>Forgot your password?</Link> ·{' '}
        <Link to={PATHS.signup}>Create an account</Link>
      </p>
    </section>
  )
}
