// What only the Node server has, handed to the features by app.ts (the browser demo has none of it): the API reference
// viewer of /__mock/docs, a file of the installed `redoc` package, and a synchronous gunzip for recorder batches.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { gunzipSync } from 'node:zlib'

/** The one image the bundle loads from another host: the Redocly logo of its side menu, from Redocly's CDN. */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg'

/** The installed bundle, read at its first request (a server that never shows the docs never reads 1 MB). */
export function readRedocViewer(): string {
  const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')
  // An image that fails to load is dropped by the side menu, and `data:,` fails without a request.
  return readFileSync(file, 'utf8').replaceAll(REDOCLY_LOGO, 'data:,')
}

/** Inflates a gzip batch, at most `maxBytes` out (a larger one fails with ERR_BUFFER_TOO_LARGE). */
export function gunzipBatch(bytes: Uint8Array, maxBytes: number): Uint8Array {
  return gunzipSync(bytes, { maxOutputLength: maxBytes })
}
