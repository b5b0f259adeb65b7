// Every page sets the document title (docs/behaviour.md: Routes).
import { useEffect } from 'react'

export const APP_NAME = 'Auth shell'

/** Sets `document.title` to "<title> · Auth shell" while the page is shown. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`
  }, [title])
}
