// node:url in the browser build of the demo (docs/decisions/021-serverless-demo.md): file URLs name no file here.

export function fileURLToPath(url: string | URL): string {
  const parsed = new URL(url)
  if (parsed.protocol !== 'file:') throw new TypeError('The URL must be of scheme file')
  return decodeURIComponent(parsed.pathname)
}

export function pathToFileURL(path: string): URL {
  return new URL(`file://${encodeURI(path)}`)
}
