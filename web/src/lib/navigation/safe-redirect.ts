// Where to go after sign-in: a same-origin relative path only (docs/behaviour.md: Routes "The guard"), else home. Pure.

import { PATHS } from '../config/paths.ts'

/**
 * @example
 * getSafeRedirect('/process?tab=2') // '/process?tab=2'
 * getSafeRedirect('https://evil.example/') // '/'
 */
export function getSafeRedirect(value: string | null | undefined, fallback: string = PATHS.home): string {
  if (typeof value !== 'string' || value === '') return fallback
  // One leading slash, then no second slash or backslash (protocol-relative), no scheme, no control characters.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return fallback
  }
  try {
    const url = new URL(value, 'http://same.origin')
    if (url.origin !== 'http://same.origin') return fallback
    // Normalizing can bring back a leading `//` (`/.//evil.example`), another host to a browser. So check again.
    if (url.pathname.startsWith('//')) return fallback
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return fallback
  }
}

/** The login address for a visitor sent away from `path`. */
export function getLoginPath(path: string): string {
  return `${PATHS.login}?redirect=${encodeURIComponent(path)}`
}
