// /callback: the return point of the external sign-in. Checks `state` against the one kept in sessionStorage,
// then exchanges `code` and `state` at POST /api/auth/callback.
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { getErrorMessage } from '../../api/error-messages.ts'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { getSafeRedirect } from '../../lib/navigation/safe-redirect.ts'
import { useServices } from '../../lib/services/services.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { PATHS } from '../../lib/config/paths.ts'

export const STATE_MISMATCH_MESSAGE =
  'This sign-in did not start in this browser tab, or it has already been used. Please start again.'

export function CallbackPage() {
  useDocumentTitle('Signing in')
  const { api, values } = useServices()
  const store = useSessionStore()
  const [params] = useSearchParams()
  const [failure, setFailure] = useState<string | null>(null)
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return // once, also under StrictMode's double effects
    started.current = true
    const code = params.get('code')
    const state = params.get('state')
    const pending = values.ssoState.get()
    values.ssoState.clear()
    if (params.get('error'))
      return setFailure(params.get('error_description') ?? 'The sign-in was cancelled.')
    if (!code || !state || !pending || pending.state !== state) return setFailure(STATE_MISMATCH_MESSAGE)
    void (async () => {
      try {
        const generation = store.getGeneration()
        const { data, error } = await api.POST('/api/auth/callback', { body: { code, state } })
        if (!data) return setFailure(getErrorMessage(error))
        store.signIn(data, { generation, redirect: getSafeRedirect(pending.redirect) })
      } catch {
        setFailure('Could not reach the server. Please try again.')
      }
    })()
  }, [api, params, store, values])

  return (
    <section className="auth-card" aria-labelledby="callback-heading">
      <h1 id="callback-heading">{failure ? 'Sign-in failed' : 'Signing you in…'}</h1>
      {failure ? (
        <>
          <p role="alert">{failure}</p>
          <p className="links">
            <Link to={PATHS.login}>Back to sign in</Link>
          </p>
        </>
      ) : null}
    </section>
  )
}
