// Where the QA panel goes in the layout: only when the mock server serves the app (config.json `mock: true`), and
// then as a lazy chunk, so a production configuration never loads it. It mounts once the page is idle (or at the
// first interaction), so its chunk never competes with the first paint (docs/decisions/012-first-load.md).
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react'
import { runWhenIdle } from '../lib/monitoring/idle-start.ts'
import { useServices } from '../lib/services/services.ts'

/**
 * Fetched in the background: a chunk or a stylesheet that fails to load leaves the panel out (a reload brings it),
 * not the error page, and says so on the console. An async function, not `import(...).then(ok, failed)`: Vite wraps
 * a dynamic import together with the handlers chained onto it, and its stylesheet check fails outside them
 * (eslint.config.js forbids that form).
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
