// Where the toasts show in the layout: nothing until the toast area's chunk is in (toasts.ts).
// Coming back online asks for the chunk again.
import { useEffect, useSyncExternalStore } from 'react'
import type { Toasts } from './toasts.ts'

export function ToastArea({
  toasts,
  afterFirstPaint,
}: {
  toasts: Pick<Toasts, 'load' | 'subscribe' | 'getSnapshot'>
  afterFirstPaint: () => Promise<void>
}) {
  const Toaster = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot)
  useEffect(() => {
    if (Toaster) return
    // After the first paint: nothing but the screen before it. A toast raised sooner asks for the chunk itself.
    const load = () => toasts.load()
    void afterFirstPaint().then(load)
    window.addEventListener('online', load)
    return () => window.removeEventListener('online', load)
  }, [Toaster, toasts, afterFirstPaint])
  return Toaster ? <Toaster /> : null
}
