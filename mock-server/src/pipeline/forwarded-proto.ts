// The protocol a client used, read from the same trusted hop as its address (docs/security/surface.md, section
// 3). Entries left of that hop are the client's own writing, so they are never trusted.

export function forwardedProtocol(
  header: string | undefined,
  hops: number,
  direct: 'http' | 'https',
): 'http' | 'https' {
  if (hops <= 0 || header === undefined) return direct
  const entries = header.split(',').map((entry) => entry.trim().toLowerCase())
  // Fewer entries than hops: the left-most is the furthest any proxy wrote, as for X-Forwarded-For.
  const entry = entries[Math.max(0, entries.length - hops)]
  if (!entry) return direct
  return entry === 'https' ? 'https' : 'http'
}
