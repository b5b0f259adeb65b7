// The error page as people see it (docs/behaviour.md: Routes, Messages). Eager and small, so it still shows
// when the error page's chunk (error-page.tsx) cannot load.
import { useEffect } from 'react'
import { isRouteErrorResponse, useLocation } from 'react-router-dom'
import { useDocumentTitle } from '../lib/browser/document-title.ts'
import { useServices } from '../lib/services/services.ts'
import { PATHS } from '../lib/config/paths.ts'

/** React 19 hoists this <meta> into <head>. */
export const NOINDEX = <meta name="robots" content="noindex" />

/** The page's title and heading for `status`. */
export const errorTitle = (status: number) => (status === 404 ? 'Page not found' : 'Internal Server Error')

export function ErrorView({ status, path }: { status: number; path: string }) {
  const notFound = status === 404
  const title = errorTitle(status)
  useDocumentTitle(title)
  return (
    <section className="error-page" aria-labelledby="error-heading">
      {NOINDEX}
      <h1 id="error-heading">{title}</h1>
      <p>
        {notFound ? `Page Not Found: ${path}` : 'Something went wrong on our side. Please try again later.'}
      </p>
      <p>
        <a href={PATHS.home}>Go to the home page</a>
      </p>
    </section>
  )
}

/**
 * A thrown 404 shows as 404; anything else as 500, and is reported.
 * A 404 is an address, not a fault (docs/behaviour.md: Constants).
 */
export function useCaughtError(error: unknown): { status: number; path: string } {
  const { pathname } = useLocation()
  const status = isRouteErrorResponse(error) && error.status === 404 ? 404 : 500
  const { errors } = useServices()
  useEffect(() => {
    if (status !== 404) errors.report(error)
  }, [error, errors, status])
  return { status, path: pathname }
}
