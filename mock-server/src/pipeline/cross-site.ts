// Whether another site made a request: Fetch Metadata first, the Origin header where that is missing. A request
// with neither (curl, the scenario command line, a test) is not a browser's cross-site request.

/**
 * @example
 * isCrossSite({ 'sec-fetch-site': 'cross-site' }, 'http://127.0.0.1:4010') // true
 * isCrossSite({ origin: 'http://127.0.0.1:4010' }, 'http://127.0.0.1:4010') // false
 */
export function isCrossSite(headers: Record<string, string | undefined>, origin: string): boolean {
  const site = headers['sec-fetch-site']
  // same-site is refused too: another port of localhost is the same site, and not this server.
  if (site !== undefined) return site !== 'same-origin' && site !== 'none'
  const from = headers.origin
  return from !== undefined && from !== origin
}
