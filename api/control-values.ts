// Parsers for values typed into the server's flags, /__mock and the QA command line.
// One parser each, so a value means the same wherever it is typed.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * A duration: "500ms", "30s", "15m", "24h", "2d", or plain milliseconds.
 * @throws "Failed to read duration ..." on anything else.
 * @example parseDuration('15m') // 900000
 */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text)
  if (!match)
    throw new Error(`Failed to read duration ${JSON.stringify(text)}: use e.g. 500ms, 30s, 15m, 24h.`)
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!)
}

/**
 * The journal's `since` filter (GET /__mock/requests): a seq number, or an ISO date-time.
 * @throws "Failed to read since: ..." on anything else.
 * @example parseSince('42') // { seq: 42 }
 */
export function parseSince(since: string): { seq: number } | { at: number } {
  if (/^\d{1,15}$/.test(since)) return { seq: Number(since) }
  const at = Date.parse(since)
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}[Tt]/.test(since)) {
    throw new Error('Failed to read since: use a seq number or an ISO date-time.')
  }
  return { at }
}
