// Which URLs name this machine: the one place plain http is allowed for an identity provider
// (docs/decisions/022-openid-provider.md), read by the flags and by the relying party alike.

/**
 * Whether the URL's host is this machine: `localhost`, an address of 127.0.0.0/8, or `[::1]`.
 * @example isLoopbackUrl(new URL('http://127.0.0.2:9000/idp')) // true
 */
export function isLoopbackUrl(url: URL): boolean {
  return ['localhost', '[::1]'].includes(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)
}
