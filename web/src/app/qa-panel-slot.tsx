// The QA panel's place in the layout. It is a lazy chunk shown only with config.json `mock: true`, so production
// never loads it. It mounts when the page is idle, away from the first paint (docs/decisions/012-first-load.md).
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react'
import { runWhenIdle } from '../lib/monitoring/idle-start.ts'
import { useServices } from '../lib/services/services.ts'

/**
 * Fetched in the background, so a failed load leaves the panel out and logs, never the error page.
 * An async function, not `import(...).then(...)`: eslint.config.js says why.
 */
export const QA_PANEL_LOAD_FAILED = 'Failed to load the QA panel:'

async function loadQaPanel(): Promise<{ default: ComponentType }> {
  try {
    return { default: (await import('../features/qa/qa-panel.tsx')).QaPanel }
  } catch (error) {
    console.warn(QA_PANEL_LOAD_FAILED, error)
    return { default: () => null }
  }
}

const QaPanel = lazy(loadQaPanel)

export function QaPanelSlot() {
  const { config, afterFirstPaint } = useServices()
  const [pageSettled, setPageSettled] = useState(false)
  useEffect(
    () =>
      config.mock
        ? runWhenIdle(() => setPageSettled(true), undefined, { after: afterFirstPaint() })
        : undefined,
    [config.mock, afterFirstPaint],
  )
  if (!config.mock || !pageSettled) return null
  return (
    <Suspense fallback={null}>
      <QaPanel />
    </Suspense>
  )
}
