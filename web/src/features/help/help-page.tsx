// /help: sign-in required. Its content (GET /api/help, searchable articles) comes in a later issue.
import { useDocumentTitle } from '../../lib/document-title.ts'

export function HelpPage() {
  useDocumentTitle('Help')
  return (
    <section>
      <h1>Help</h1>
      <p>Help articles will appear here.</p>
    </section>
  )
}
