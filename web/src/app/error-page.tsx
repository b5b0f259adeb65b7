// The error page (docs/behaviour.md: Routes, Messages): the view people see (error-view.tsx), and for crawlers a bare
// status text, never indexed. A chunk of its own for the crawler list (router.tsx).
import { useLocation } from 'react-router-dom'
import { getDevice } from '../lib/browser/device.ts'
import { useDocumentTitle } from '../lib/browser/document-title.ts'
import { useServices } from '../lib/services/services.ts'
import { ErrorView, errorTitle, NOINDEX, useCaughtError } from './error-view.tsx'

function CrawlerText({ status }: { status: number }) {
  useDocumentTitle(errorTitle(status))
  return (
    <>
      {NOINDEX}
      <p>{status === 404 ? '404 Not Found' : '500 Internal Server Error'}</p>
    </>
  )
}

function PageFor({ status, path }: { status: number; path: string }) {
  const { userAgent } = useServices()
  return getDevice(userAgent).crawler ? (
    <CrawlerText status={status} />
  ) : (
    <ErrorView status={status} path={path} />
  )
}

/** For unmatched paths (the catch-all route). */
export function NotFoundPage() {
  return <PageFor status={404} path={useLocation().pathname} />
}

/** What a route's error boundary shows (router.tsx). */
export function ErrorPage({ error }: { error: unknown }) {
  return <PageFor {...useCaughtError(error)} />
}
