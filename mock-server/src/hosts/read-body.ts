// Reads a Node request's body, decoded, never past the operation's limit, so a small gzip cannot inflate to
// 64 MiB. `100 Continue` is sent only here, once the dispatcher has decided to read the body.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib'
import type { BodyRead } from '../pipeline/raw.ts'

function createDecoder(encoding: string): Gunzip | Inflate | null | 'unsupported' {
  if (encoding === '' || encoding === 'identity') return null
  if (encoding === 'gzip' || encoding === 'x-gzip') return createGunzip()
  if (encoding === 'deflate') return createInflate()
  return 'unsupported'
}

/**
 * What one host knows of its requests' bodies beyond the request itself. Made by the host (hosts/node-host.ts)
 * and told by its server (hosts/http-server.ts), so two servers in one process share none of it.
 */
export interface BodyReader {
  read(request: IncomingMessage, maxBytes: number): Promise<BodyRead>
  /** The request's body broke on the wire (framing no parser can read): a read of it, now or later, is `unreadable`. */
  markUnreadable(request: IncomingMessage): void
  /** The client sent `Expect: 100-continue`: `100 Continue` goes out when, and only if, its body is read. */
  deferContinue(request: IncomingMessage, response: ServerResponse): void
}

export function createBodyReader(): BodyReader {
  const brokenBodies = new WeakSet<IncomingMessage>()
  /** How a read under way ends, for a body that breaks while it is read. */
  const readsUnderWay = new WeakMap<IncomingMessage, (result: BodyRead) => void>()
  const awaitingContinue = new WeakMap<IncomingMessage, ServerResponse>()
  return {
    read(request, maxBytes) {
      if (!hasRequestBody(request)) return Promise.resolve(new Uint8Array())
      if (Number(request.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve('too_large')
      const decoder = createDecoder((request.headers['content-encoding'] ?? '').trim().toLowerCase())
      if (decoder === 'unsupported') return Promise.resolve('unsupported_encoding')
      if (brokenBodies.has(request)) return Promise.resolve('unreadable')
      awaitingContinue.get(request)?.writeContinue()
      awaitingContinue.delete(request)
      return new Promise((resolve) => {
        const finish = readBody(request, decoder, maxBytes, (result) => {
          readsUnderWay.delete(request)
          resolve(result)
        })
        readsUnderWay.set(request, finish)
      })
    },
    markUnreadable(request) {
      brokenBodies.add(request)
      readsUnderWay.get(request)?.('unreadable')
    },
    deferContinue: (request, response) => void awaitingContinue.set(request, response),
  }
}

/** True when the request announces a body (a length above zero, or chunks). */
export function hasRequestBody(request: IncomingMessage): boolean {
  const length = Number(request.headers['content-length'] ?? 0)
  return length > 0 || request.headers['transfer-encoding'] !== undefined
}

/** Reads the body through its decoder, if any; returns how the read ends early (its result given once, to `done`). */
function readBody(
  request: IncomingMessage,
  decoder: Gunzip | Inflate | null,
  maxBytes: number,
  done: (result: BodyRead) => void,
): (result: BodyRead) => void {
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
    done(result)
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
  return finish
}
