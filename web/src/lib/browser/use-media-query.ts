// Whether a media query matches now, following its changes (useSyncExternalStore over window.matchMedia).
import { useCallback, useSyncExternalStore } from 'react'

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  const read = () => window.matchMedia(query).matches
  return useSyncExternalStore(subscribe, read, () => false)
}
