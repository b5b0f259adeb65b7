// What only the Node server has (files, gunzip, the docs viewer, the SMTP transport), handed to the features by app.ts.
// The browser demo has none of it.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { MockOptions } from './options.ts'
import { createPersistence } from './persistence.ts'
import { createMailOutbox } from '../control/mail-outbox.ts'
import { createSmtpOutbox } from '../control/smtp-mail.ts'

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

/** Reads `builds/<file>` under the web root (product/operations/build.ts). */
export function readBuildFile(webRoot: string, file: string): string {
  return readFileSync(join(webRoot, 'builds', file), 'utf8')
}

/** Every Node capability, as the options createMockCore takes them. */
export const NODE_PORTS = {
  readDocsViewer: readRedocViewer,
  gunzip: gunzipBatch,
  openDataFile: createPersistence,
  openMailOutbox: createMailOutbox,
  openSmtp: createSmtpOutbox,
  readBuildFile,
} satisfies MockOptions
