// Counts API calls in flight, for the layout's loading bar; subscribe/getSnapshot for useSyncExternalStore.

export function createActivityTracker() {
  let count = 0
  const listeners = new Set<() => void>()
  const set = (next: number) => {
    count = Math.max(0, next)
    listeners.forEach((listener) => listener())
  }
  return {
    start: () => set(count + 1),
    end: () => set(count - 1),
    getSnapshot: () => count,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

export type ActivityTracker = ReturnType<typeof createActivityTracker>
