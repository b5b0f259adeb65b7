// Where the QA panel goes in the layout: only when the mock server serves the app (config.json `mock: true`), and
// then as a lazy chunk, so a production configuration never loads it.
import { lazy, Suspense } from 'react'
import { useServices } from '../lib/services/services.ts'

const QaPanel = lazy(async () => ({ default: (await import('../features/qa/qa-panel.tsx')).QaPanel }))

export function QaPanelSlot() {
  const { config } = useServices()
  if (!config.mock) return null
  return (
    <Suspense fallback={null}>
      <QaPanel />
    </Suspense>
  )
}
