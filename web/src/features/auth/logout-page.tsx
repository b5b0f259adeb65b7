// /logout: ends the session, then the session store sends the browser to /login.
import { useEffect } from 'react'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { useSessionStore } from '../../session/use-session.ts'

export function LogoutPage() {
  useDocumentTitle('Signing out')
  const store = useSessionStore()
  useEffect(() => {
    store.logout() // one at a time: StrictMode's second effect joins the first
  }, [store])
  return (
    <section className="auth-card">
      <h1>Signing out…</h1>
    </section>
  )
}
