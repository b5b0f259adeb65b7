// node:net in the browser build of the demo (docs/decisions/021-serverless-demo.md): isIP alone, as Node answers it
// (4, 6, or 0 for anything else), with the URL parser deciding what is an IPv6 address.

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

export function isIP(input: string): 0 | 4 | 6 {
  if (IPV4.test(input)) return 4
  if (!input.includes(':') || /[^0-9a-fA-F:.%]/.test(input.split('%')[0] ?? '')) return 0
  try {
    new URL(`http://[${input.split('%')[0]}]/`)
    return 6
  } catch {
    return 0
  }
}

export function isIPv4(input: string): boolean {
  return isIP(input) === 4
}

export function isIPv6(input: string): boolean {
  return isIP(input) === 6
}
