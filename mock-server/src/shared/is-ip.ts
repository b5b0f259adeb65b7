// Pure: isIP as node:net answers it (4, 6 or 0); imports no node:net, so the pipeline runs in a browser too.
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const ZONE = /^[0-9a-zA-Z\-.:]+$/

export function isIP(input: string): 0 | 4 | 6 {
  if (IPV4.test(input)) return 4
  const [address = '', zone, ...more] = input.split('%')
  if (more.length > 0 || (zone !== undefined && !ZONE.test(zone))) return 0
  if (!address.includes(':') || /[^0-9a-fA-F:.]/.test(address)) return 0
  try {
    new URL(`http://[${address}]/`)
    return 6
  } catch {
    return 0
  }
}
