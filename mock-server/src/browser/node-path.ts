// node:path in the browser build of the demo (docs/decisions/021-serverless-demo.md): the POSIX forms, enough for
// the paths the mock server builds (which, with no file system, it never opens).

export const sep = '/'

export function join(...parts: string[]): string {
  return normalize(parts.filter((part) => part !== '').join('/'))
}

export function resolve(...parts: string[]): string {
  const absolute = parts.reduce((path, part) => (part.startsWith('/') ? part : `${path}/${part}`), '/')
  return normalize(absolute)
}

export function normalize(path: string): string {
  const absolute = path.startsWith('/')
  const kept: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..' && kept.length > 0 && kept[kept.length - 1] !== '..') kept.pop()
    else if (segment !== '..' || !absolute) kept.push(segment)
  }
  const joined = kept.join('/')
  return absolute ? `/${joined}` : joined || '.'
}

export function dirname(path: string): string {
  const cut = path.replace(/\/+$/, '').lastIndexOf('/')
  return cut < 0 ? '.' : cut === 0 ? '/' : path.slice(0, cut)
}

export function basename(path: string, suffix?: string): string {
  const name = path.replace(/\/+$/, '').split('/').pop() ?? ''
  return suffix && name.endsWith(suffix) && name !== suffix ? name.slice(0, -suffix.length) : name
}

export function extname(path: string): string {
  const name = basename(path)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot)
}

export const posix = { sep, join, resolve, normalize, dirname, basename, extname }
