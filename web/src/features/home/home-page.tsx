// / (home): loads GET /api/me through the API client and greets the user by name.
import { useCallback, useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { getErrorMessage } from '../../api/error-messages.ts'
import { useDocumentTitle } from '../../lib/document-title.ts'
import { useServices } from '../../lib/services.ts'
import { normalizeUser, type User } from '../../session/user.ts'

type Load = { status: 'loading' } | { status: 'ready'; user: User } | { status: 'failed'; message: string }

export function HomePage() {
  useDocumentTitle('Home')
  const { api } = useServices()
  const [load, setLoad] = useState<Load>({ status: 'loading' })

  const fetchMe = useCallback(async () => {
    setLoad({ status: 'loading' })
    try {
      const { data, error } = await api.GET('/api/me')
      const user = normalizeUser(data)
      setLoad(user ? { status: 'ready', user } : { status: 'failed', message: getErrorMessage(error) })
    } catch {
      setLoad({ status: 'failed', message: 'Could not reach the server. Please try again.' })
    }
  }, [api])

  useEffect(() => {
    void fetchMe()
  }, [fetchMe])

  if (load.status === 'loading') return <p aria-busy="true">Loading your account…</p>
  if (load.status === 'failed') {
    return (
      <section>
        <h1>Home</h1>
        <p role="alert">{load.message}</p>
        <button type="button" onClick={() => void fetchMe()}>
          Try again
        </button>
      </section>
    )
  }
  const { user } = load
  return (
    <section aria-labelledby="home-heading">
      <h1 id="home-heading">Welcome, {user.name || user.email}</h1>
      <dl className="account">
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
      </dl>
      <nav aria-label="Next steps">
        <ul>
          <li>
            <Link to="/process">Your process</Link>
          </li>
          <li>
            <Link to="/help">Help</Link>
          </li>
          <li>
            <Link to="/update_password">Change your password</Link>
          </li>
        </ul>
      </nav>
    </section>
  )
}
