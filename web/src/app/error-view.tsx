// The error page as people see it (docs/behaviour.md: Routes, Messages): 404 'Page not found' / 'Page Not Found:
// <path>'; anything else 'Internal Server Error'; never indexed. Eager and small: the error page's chunk
// (error-page.tsx) adds what crawlers get, and when that chunk cannot be loaded this shows alone (router.tsx).
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
 * What a route's error boundary caught, as the error page shows it: thrown 404 answers as 404, everything else as
 * 500, which is reported (docs/behaviour.md: Constants; a 404 is an address, not a fault).
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
