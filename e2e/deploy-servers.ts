// The two servers of a deployment on two origins (docs/decisions/020-deploying-on-two-origins.md).
// Mails go to a folder (--mail-outbox), since production has no /__mock mailbox.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
}

export interface StaticSite {
  /** The port it listens on (127.0.0.1); name it `http://localhost:<port>` or `http://127.0.0.1:<port>`. */
  port: number
  /** What /config.json answers from now on. */
  setConfig(config: Record<string, unknown>): void
  close(): Promise<void>
}

/**
 * The built app as any static host serves it, with the SPA fallback. No compression, no CSP.
 */
export async function startStaticSite(dir: string): Promise<StaticSite> {
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(
      `Failed to serve the app: no index.html in ${dir} (the e2e build is made by playwright.config.ts).`,
    )
  let config: Record<string, unknown> = {}
  const server = createServer((request, response) => {
    const path = readPath(request.url)
    if (path === null) {
      response.writeHead(400, { 'content-type': 'text/plain' })
      return response.end('Bad request')
    }
    if (path === '/config.json') {
      response.writeHead(200, { 'content-type': TYPES['.json']!, 'cache-control': 'no-store' })
      return response.end(JSON.stringify(config))
    }
    const file = normalize(join(dir, path))
    const target = !file.startsWith(`${normalize(dir)}${sep}`)
      ? null
      : isFile(file)
        ? file
        : extname(path) === ''
          ? join(dir, 'index.html')
          : null
    if (!target) {
      response.writeHead(404, { 'content-type': 'text/plain' })
      return response.end('Not found')
    }
    response.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' })
    response.end(readFileSync(target))
  })
  await listen(server)
  return {
    port: (server.address() as AddressInfo).port,
    setConfig: (next) => void (config = next),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // The browser keeps its connections open; the test is over.
        server.closeAllConnections()
      }),
  }
}

function readPath(url: string | undefined): string | null {
  try {
    return decodeURIComponent(new URL(url ?? '/', 'http://site.invalid').pathname)
  } catch {
    return null
  }
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
}

export interface ProductionApi {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  /** The newest code mailed to `email` for `purpose`, once its mail is in the outbox (undefined until then). */
  readCode(email: string, purpose: 'signup' | 'login' | 'reset'): string | undefined
  stop(): Promise<void>
}

interface Mail {
  to: string
  purpose: string
  code?: string
}

/**
 * `npm run mock -- --production --web none --cors-origin <origin>... --mail-outbox <temp dir>` on a free port of
 * 127.0.0.1, resolved once it prints its address.
 */
export async function startProductionApi(corsOrigins: readonly string[]): Promise<ProductionApi> {
  const outbox = mkdtempSync(join(tmpdir(), 'e2e-outbox-'))
  const args = ['--production', '--port', '0', '--web', 'none', '--quiet', '--mail-outbox', outbox]
  for (const origin of corsOrigins) args.push('--cors-origin', origin)
  const { MOCK_CONTROL_TOKEN: _token, PORT: _port, ...env } = process.env
  const child = spawn(process.execPath, [join(root, 'mock-server/start.mjs'), ...args], { cwd: root, env })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const origin = await readAddress(child)
  return {
    origin,
    readCode(email, purpose) {
      const mails = readdirSync(outbox)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as Mail)
      return mails.filter((mail) => mail.to === email && mail.purpose === purpose).at(-1)?.code
    },
    async stop() {
      child.kill('SIGTERM')
      await exited
      rmSync(outbox, { recursive: true, force: true })
    },
  }
}

function readAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const address = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (address) resolve(address)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`Failed to start the API (exit ${code}): ${output}`)))
  })
}
