// The error page (docs/behaviour.md: Routes, Messages): 404 'Page not found' / 'Page Not Found: <path>'; anything else 'Internal Server
// Error'. Crawlers get a bare status text; the page is never indexed. What the router caught is reported (docs/behaviour.md: Constants),
// except a 404 (an address, not a fault).
import { useEffect } from 'react'
import { isRouteErrorResponse, useLocation } from 'react-router-dom'
import { getDevice } from '../lib/browser/device.ts'
import { useDocumentTitle } from '../lib/browser/document-title.ts'
import { useServices } from '../lib/services/services.ts'
import { PATHS } from './paths.ts'

export function ErrorView({ status, path }: { status: number; path: string }) {
  const notFound = status === 404
  const title = notFound ? 'Page not found' : 'Internal Server Error'
  useDocumentTitle(title)
  const { userAgent } = useServices()
  // React 19 hoists this <meta> into <head>.
  const noindex = <meta name="robots" content="noindex" />
  if (getDevice(userAgent).crawler) {
    return (
      <>
        {noindex}
        <p>{notFound ? '404 Not Found' : '500 Internal Server Error'}</p>
      </>
    )
  }
  return (
    <section className="error-page" aria-labelledby="error-heading">
      {noindex}
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

/** For unmatched paths (the catch-all route). */
export function NotFoundPage() {
  return <ErrorView status={404} path={useLocation().pathname} />
}

/** What a route's error boundary shows (router.tsx): thrown 404 answers as 404, everything else as 500. */
export function ErrorPage({ error }: { error: unknown }) {
  const { pathname } = useLocation()
  const status = isRouteErrorResponse(error) && error.status === 404 ? 404 : 500
  const { errors } = useServices()
  useEffect(() => {
    if (status !== 404) errors.report(error)
  }, [error, errors, status])
  return <ErrorView status={status} path={pathname} />
}
