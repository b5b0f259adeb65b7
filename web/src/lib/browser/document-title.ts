// Every page sets the document title (docs/behaviour.md: Routes).
import { useLayoutEffect } from 'react'

export const APP_NAME = 'Auth shell'

/** Sets `document.title` to "<title> · Auth shell" while the page is shown. */
export function useDocumentTitle(title: string) {
  // A layout effect, so the title never lags the screen, even for a lazy page outside a test's act().
  useLayoutEffect(() => {
    document.title = `${title} · ${APP_NAME}`
  }, [title])
}
