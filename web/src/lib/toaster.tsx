// The toast area of the layout: top-center, 6000 ms, paused on hover (react-hot-toast's own) and on touch, with the
// resume debounced by 2000 ms (spec 9, first reading).
import { useEffect, useRef } from 'react'
import { ToastBar, Toaster, useToaster } from 'react-hot-toast'
import { TOAST_TOUCH_PAUSE_MS } from '../session/constants.ts'
import { TOAST_OPTIONS, TOAST_POSITION } from './toasts.ts'

export function AppToaster() {
  const { handlers } = useToaster(TOAST_OPTIONS)
  const resume = useRef<ReturnType<typeof setTimeout> | null>(null)
  const cancelResume = () => {
    if (resume.current !== null) clearTimeout(resume.current)
    resume.current = null
  }
  useEffect(() => cancelResume, [])
  return (
    <div
      onTouchStart={() => {
        cancelResume()
        handlers.startPause()
      }}
      onTouchEnd={() => {
        cancelResume()
        resume.current = setTimeout(handlers.endPause, TOAST_TOUCH_PAUSE_MS)
      }}
    >
      <Toaster position={TOAST_POSITION} toastOptions={TOAST_OPTIONS}>
        {(t) => (
          // A dismissed toast fades out for a second; hide it from assistive technology (and tests) at once.
          <div aria-hidden={t.visible ? undefined : true}>
            <ToastBar toast={t} position={TOAST_POSITION} />
          </div>
        )}
      </Toaster>
    </div>
  )
}
