// Pure: wrong one-time codes per (address, purpose); time comes in as an argument.
// A sliding window counted across resends, so a new code never brings a new budget. In memory and capped.
// Figures and the tests that prove them: docs/security/codes.md.

export interface GuessLog {
  /** Seconds until a guess may be checked again for this address and purpose (0 when it may now). */
  wait(email: string, purpose: string, now: number): number
  /** The wrong guesses still allowed in the window. */
  remaining(email: string, purpose: string, now: number): number
  /** Counts a wrong guess; returns the wrong guesses still allowed in the window after it. */
  record(email: string, purpose: string, now: number): number
  /** Drops the addresses whose every guess is out of the window; returns how many. */
  purge(now: number): number
  size(): number
  clear(): void
  /** The counted guesses, for tests that check what a refused call changed. */
  snapshot(): Record<string, number[]>
}

export interface GuessLimit {
  max: number
  windowMs: number
}

/**
 * @example
 * const guesses = createGuessLog({ max: 20, windowMs: 3_600_000 }, 50_000)
 * guesses.record('a@b.test', 'login', 0) // 19
 * guesses.wait('a@b.test', 'login', 0)   // 0 (a wait only once 20 were counted)
 */
export function createGuessLog(limit: GuessLimit, capacity: number): GuessLog {
  // A Map keeps insertion order; an address is moved to the end when it guesses, so the first key is the one
  // that guessed least recently.
  const logs = new Map<string, number[]>()
  const keyOf = (email: string, purpose: string) => `${purpose}:${email}`
  const recent = (key: string, now: number) =>
    logs.get(key)?.filter((time) => time > now - limit.windowMs) ?? []

  return {
    wait(email, purpose, now) {
      const times = recent(keyOf(email, purpose), now)
      if (times.length < limit.max) return 0
      const oldest = times[times.length - limit.max]!
      return Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000))
    },
    remaining: (email, purpose, now) => Math.max(0, limit.max - recent(keyOf(email, purpose), now).length),
    record(email, purpose, now) {
      const key = keyOf(email, purpose)
      const times = [...recent(key, now), now].slice(-limit.max)
      logs.delete(key)
      if (logs.size >= capacity) logs.delete(logs.keys().next().value!)
      logs.set(key, times)
      return Math.max(0, limit.max - times.length)
    },
    purge(now) {
      let removed = 0
      for (const [key, times] of logs) {
        if (times.every((time) => time <= now - limit.windowMs)) removed += Number(logs.delete(key))
      }
      return removed
    },
    size: () => logs.size,
    clear: () => logs.clear(),
    snapshot: () => Object.fromEntries(logs),
  }
}
