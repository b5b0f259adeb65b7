// Reads a Node request's body for the dispatcher, decoded from its Content-Encoding, never more than the
// operation's limit: a declared length over the limit is refused before a byte is read, and decoding stops
// as soon as the output passes it (a small gzip that inflates to 64 MiB is refused at the limit).
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib'
import type { BodyRead } from '../http/raw.ts'

function createDecoder(encoding: string): Gunzip | Inflate | null | 'unsupported' {
  if (encoding === '' || encoding === 'identity') return null
  if (encoding === 'gzip' || encoding === 'x-gzip') return createGunzip()
  if (encoding === 'deflate') return createInflate()
  return 'unsupported'
}

/** True when the request announces a body (a length above zero, or chunks). */
export function hasRequestBody(request: IncomingMessage): boolean {
  const length = Number(request.headers['content-length'] ?? 0)
  return length > 0 || request.headers['transfer-encoding'] !== undefined
}

export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (!hasRequestBody(request)) return Promise.resolve(new Uint8Array())
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve('too_large')
  const decoder = createDecoder((request.headers['content-encoding'] ?? '').trim().toLowerCase())
  if (decoder === 'unsupported') return Promise.resolve('unsupported_encoding')
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    let decoded = 0
    let settled = false
    const source: Readable = decoder ?? request
    const finish = (result: BodyRead) => {
      if (settled) return
      settled = true
      if (decoder) {
        request.unpipe(decoder)
        decoder.destroy()
      }
      request.pause()
      resolve(result)
    }
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBytes) finish('too_large')
    })
    source.on('data', (chunk: Buffer) => {
      decoded += chunk.length
      if (decoded > maxBytes) return finish('too_large')
      chunks.push(chunk)
    })
    source.on('end', () => finish(new Uint8Array(Buffer.concat(chunks))))
    source.on('error', () => finish('unreadable'))
    request.on('aborted', () => finish('unreadable'))
    request.on('error', () => finish('unreadable'))
    if (decoder) request.pipe(decoder)
  })
}
