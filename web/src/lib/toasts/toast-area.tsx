// Where the toasts show in the layout: toaster.tsx once its chunk is in, fetched in the background right after the
// first paint (toasts.ts, lib/browser/first-paint.ts), and nothing until then. Until it is in, the browser coming back online asks for it again.
import { useEffect, useSyncExternalStore } from 'react'
import { afterFirstPaint } from '../browser/first-paint.ts'
import { loadToastArea, toastArea } from './toasts.ts'

export function ToastArea() {
  const Toaster = useSyncExternalStore(toastArea.subscribe, toastArea.getSnapshot, toastArea.getSnapshot)
  useEffect(() => {
    if (Toaster) return
    // After the first paint (lib/browser/first-paint.ts): nothing but the screen before it. A toast raised sooner
    // asks for the chunk itself.
    void afterFirstPaint().then(loadToastArea)
    window.addEventListener('online', loadToastArea)
    return () => window.removeEventListener('online', loadToastArea)
  }, [Toaster])
  return Toaster ? <Toaster /> : null
}
