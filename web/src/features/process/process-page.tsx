// /process: sign-in required. Its content (GET /api/process, the step scheduler) comes in a later issue.
import { useDocumentTitle } from '../../lib/document-title.ts'

export function ProcessPage() {
  useDocumentTitle('Process')
  return (
    <section>
      <h1>Process</h1>
      <p>Your enrolment steps will appear here.</p>
    </section>
  )
}
