// A fake clock with timers, injected where the app takes `clock` and `timers`: time moves only on `advance`.

interface Timer {
  at: number
  every: number | null
  fn: () => void
}

/** Lets pending promise callbacks run (several turns, for chains of awaits). */
export async function flush(turns = 20) {
  for (let i = 0; i < turns; i++) await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 0))
}

export function createFakeClock(start = 1_700_000_000_000) {
  let current = start
  let nextId = 1
  const timers = new Map<number, Timer>()
  const add = (fn: () => void, ms: number, every: number | null) => {
    const id = nextId++
    timers.set(id, { at: current + ms, every, fn })
    return id
  }
  return {
    now: () => current,
    setInterval: (fn: () => void, ms: number): unknown => add(fn, ms, ms),
    clearInterval: (id: unknown) => void timers.delete(id as number),
    setTimeout: (fn: () => void, ms: number): unknown => add(fn, ms, null),
    clearTimeout: (id: unknown) => void timers.delete(id as number),
    /** How many timers are scheduled. */
    pending: () => timers.size,
    /** Moves time forward by `ms`, firing due timers in order and letting promises settle after each. */
    async advance(ms: number) {
      const target = current + ms
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= target)
          .sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        const [id, timer] = due
        current = timer.at
        if (timer.every === null) timers.delete(id)
        else timer.at += timer.every
        timer.fn()
        await flush()
      }
      current = target
      await flush()
    },
  }
}

export type FakeClock = ReturnType<typeof createFakeClock>
