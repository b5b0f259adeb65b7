// The app's page and its runtime configuration, as the server writes them: config.json with `mock`,
// `externalSignIn` and `tokenLifetimes` set by the server, and index.html with that configuration written in.
import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { weakEtag } from './answers.ts'
import { encodeBody } from './compress.ts'
import { INLINE_CONFIG_ID, type ServerConfigFields, type TokenLifetimes } from '#api/runtime-config.ts'

export interface PageOptions {
  /** The built app (web/dist). */
  root: string
  /** config.json says `mock` (neither production mode nor a replay). */
  mock: boolean
  /** Whether this server has an identity provider: config.json's `externalSignIn`. */
  externalSignIn: boolean
  /** The lifetimes the server issues tokens with: config.json's `tokenLifetimes`. None in a replay. */
  lifetimes?: TokenLifetimesMs | undefined
}

export interface TokenLifetimesMs {
  accessTokenTtlMs: number
  refreshTokenTtlMs: number
}

/**
 * The lifetimes in whole seconds, as the tokens state them: an access token's `exp - iat` is its lifetime rounded
 * (product/domain/tokens.ts), the session cookie's `Max-Age` the refresh lifetime rounded down (sign-in.ts).
 * @example tokenLifetimes({ accessTokenTtlMs: 30_000, refreshTokenTtlMs: 86_400_000 }) // { accessSeconds: 30, refreshSeconds: 86400 }
 */
export function tokenLifetimes({ accessTokenTtlMs, refreshTokenTtlMs }: TokenLifetimesMs): TokenLifetimes {
  return {
    accessSeconds: Math.round(accessTokenTtlMs / 1000),
    refreshSeconds: Math.floor(refreshTokenTtlMs / 1000),
  }
}

/** The file's fields; nothing from a file that is not a JSON object (missing, unreadable, `null`, an array, a string). */
function readConfig(root: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

const CONFIG_PRELOAD = /<link rel="preload" href="[^"]*config\.json"[^>]*>/

/**
 * index.html with the runtime configuration written in, in place of the preload of config.json
 * (docs/decisions/012-first-load.md): one request fewer before the first paint. `<` is escaped so no value can
 * close the block.
 */
export function withInlineConfig(html: string, json: string): string {
  const block = `<script type="application/json" id="${INLINE_CONFIG_ID}">${json.replace(/</g, '\\u003c')}</script>`
  return CONFIG_PRELOAD.test(html)
    ? html.replace(CONFIG_PRELOAD, block)
    : html.replace('</body>', `${block}</body>`)
}

const NOT_BUILT = 'The web app is not built yet: run npm run build (npm start does).'

export interface PageSender {
  sendConfig(request: IncomingMessage, response: ServerResponse): void
  sendPage(request: IncomingMessage, response: ServerResponse): void
}

export function createPageSender({ root, mock, externalSignIn, lifetimes }: PageOptions): PageSender {
  const index = join(root, 'index.html')
  const configJson = () => {
    // In mock mode the supporting services report to the mock server's own sinks unless the file says otherwise.
    // The request's `Host` is never echoed (a cache or a re-bound name would hand it to others): the app fills
    // the placeholders from its own address (web/src/lib/config/runtime-config.ts).
    const sinks = !mock
      ? {}
      : {
          sentryDsn: '{protocol}//mock@{host}/1',
          recorder: { projectKey: 'mock-project', host: '{origin}' },
        }
    const file = Object.fromEntries(Object.entries(readConfig(root)).filter(([, value]) => value !== null))
    // What only the server knows wins over the file: its mode, whether external sign-in can work here, and how
    // long its tokens live.
    const server: ServerConfigFields = {
      mock,
      externalSignIn,
      ...(lifetimes && { tokenLifetimes: tokenLifetimes(lifetimes) }),
    }
    return JSON.stringify({ ...sinks, ...file, ...server })
  }
  return {
    sendConfig(request, response) {
      // Compressed as the API's answers are, past the same size (hosts/compress.ts).
      const { body, headers } = encodeBody(
        request.headers['accept-encoding'],
        request.method!,
        configJson(),
        undefined,
      )
      setHeaders(response, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      })
      response.end(body)
    },
    // The app's page, with the runtime configuration written in, so it asks for no config.json before its first
    // paint. A HEAD gets the headers the GET would (its encoding and length), without the body.
    sendPage(request, response) {
      if (!existsSync(index)) {
        response.statusCode = 503
        setHeaders(response, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': String(Buffer.byteLength(NOT_BUILT)),
          etag: weakEtag(NOT_BUILT),
        })
        response.end(request.method === 'HEAD' ? undefined : NOT_BUILT)
        return
      }
      const html = withInlineConfig(readFileSync(index, 'utf8'), configJson())
      const { body = '', headers } = encodeBody(request.headers['accept-encoding'], 'GET', html, undefined)
      const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
      setHeaders(response, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-length': String(length),
        ...headers,
      })
      response.end(request.method === 'HEAD' ? undefined : body)
    },
  }
}

export function setHeaders(response: ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) response.setHeader(name, headers[name]!)
}
