// Reads durations from flags: "500ms", "30s", "15m", "24h", "2d", or plain milliseconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** @throws "Failed to read duration ..." on anything else. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text)
  if (!match)
    throw new Error(`Failed to read duration ${JSON.stringify(text)}: use e.g. 500ms, 30s, 15m, 24h.`)
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!)
}
