// The QA panel's place in the layout. It is a chunk of its own shown only with config.json `mock: true`, so
// production never loads it. It mounts when the page is idle, away from the first paint
// (docs/decisions/012-first-load.md). The loaded panel lives in this component's state, not in a module-level
// React.lazy, which would keep it for the life of the page (docs/architecture.md: no module-level state).
import { useEffect, useState, type ComponentType } from 'react'
import { runWhenIdle } from '../lib/monitoring/idle-start.ts'
import { useServices } from '../lib/services/services.ts'

/**
 * Fetched in the background, so a failed load leaves the panel out and logs, never the error page.
 * An async function, not `import(...).then(...)`: eslint.config.js says why.
 */
export const QA_PANEL_LOAD_FAILED = 'Failed to load the QA panel:'

async function loadQaPanel(): Promise<ComponentType | null> {
  try {
    return (await import('../features/qa/qa-panel.tsx')).QaPanel
  } catch (error) {
    console.warn(QA_PANEL_LOAD_FAILED, error)
    return null
  }
}

export function QaPanelSlot() {
  const { config, afterFirstPaint } = useServices()
  const [pageSettled, setPageSettled] = useState(false)
  const [panel, setPanel] = useState<{ Panel: ComponentType | null } | null>(null)
  useEffect(
    () =>
      config.mock
        ? runWhenIdle(() => setPageSettled(true), undefined, { after: afterFirstPaint() })
        : undefined,
    [config.mock, afterFirstPaint],
  )
  useEffect(() => {
    if (!config.mock || !pageSettled) return
    let mounted = true
    const load = async () => {
      const Panel = await loadQaPanel()
      if (mounted) setPanel({ Panel })
    }
    void load()
    return () => {
      mounted = false
    }
  }, [config.mock, pageSettled])
  if (!config.mock || !panel?.Panel) return null
  return <panel.Panel />
}
