// A plain static file server for the demo with no server (e2e/demo.spec.ts), as a static host answers a SPA.
// It knows nothing of /api or /__mock: the service worker answers those.
import { createReadStream, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
}

export interface StaticServer {
  origin: string
  close(): Promise<void>
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://static').pathname)
    const file = normalize(join(root, path))
    const inside = file === root || file.startsWith(root.endsWith(sep) ? root : root + sep)
    const found = inside ? statSync(file, { throwIfNoEntry: false }) : undefined
    const target = found?.isFile()
      ? file
      : extname(path) === ''
        ? join(root, 'index.html') // the app decides what a route is
        : null
    if (!target || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(target ? 405 : 404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    })
    if (request.method === 'HEAD') response.end()
    else createReadStream(target).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
