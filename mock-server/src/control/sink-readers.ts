// What the sinks read of what arrives: Sentry envelopes and OpenReplay batches, summarised to what
// /__mock/sentry/events and /__mock/recorder/sessions list. Pure: no clock, no store (control/sinks.ts keeps them).
import type { components } from '#api/control.gen.ts'
import { createId } from '../shared/crypto.ts'

export type SentryEvent = components['schemas']['SentryEvent']

/** A JSON object: not null, not an array. */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A batch decodes to at most this much, however it is packed (the ingest's own `x-max-body-bytes`). */
export const MAX_BATCH_BYTES = 2 * 1024 * 1024

/** A batch that would inflate past MAX_BATCH_BYTES. */
export class BatchTooLargeError extends Error {}

/** An envelope or a batch that cannot be read: the request's fault, never the store's. */
export class UnreadableError extends Error {}

/**
 * Inflates a gzip batch synchronously, at most `maxBytes` out: Node's zlib, handed in by app.ts. The browser
 * decompresses only asynchronously, so the demo has none and a gzip batch fails there as a corrupt one does.
 */
export type Gunzip = (bytes: Uint8Array, maxBytes: number) => Uint8Array

export function noGunzip(): never {
  throw Object.assign(new Error('gzip bodies are not read here'), { code: 'Z_DATA_ERROR' })
}

export function inflateBatch(bytes: Uint8Array, gunzip: Gunzip): Uint8Array {
  try {
    return gunzip(bytes, MAX_BATCH_BYTES)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new BatchTooLargeError(`A batch inflates to at most ${MAX_BATCH_BYTES} bytes.`, { cause: error })
    throw new UnreadableError('Failed to read a recorder batch: it does not inflate.', { cause: error })
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** Reads a Sentry envelope: a header line, then an item header and a payload per item. */
export function parseEnvelope(bytes: Uint8Array): {
  header: Record<string, unknown>
  items: { type: string; payload: unknown }[]
} {
  const buffer = Buffer.from(bytes)
  let offset = 0
  const readLine = () => {
    const end = buffer.indexOf(0x0a, offset)
    const line = buffer.subarray(offset, end === -1 ? buffer.length : end).toString('utf8')
    offset = end === -1 ? buffer.length : end + 1
    return line
  }
  const header: unknown = JSON.parse(readLine())
  if (!isRecord(header)) throw new Error('Failed to read the envelope: its header is not a JSON object.')
  const items: { type: string; payload: unknown }[] = []
  while (offset < buffer.length) {
    const line = readLine()
    if (line.trim() === '') continue
    const itemHeader: unknown = JSON.parse(line)
    if (!isRecord(itemHeader))
      throw new Error('Failed to read the envelope: an item header is not a JSON object.')
    let raw: string
    if (typeof itemHeader.length === 'number') {
      raw = buffer.subarray(offset, offset + itemHeader.length).toString('utf8')
      offset += itemHeader.length + 1
    } else {
      raw = readLine()
    }
    let payload: unknown = raw
    try {
      payload = JSON.parse(raw)
    } catch {
      // attachments and other non-JSON payloads stay text
    }
    items.push({ type: text(itemHeader.type) ?? 'unknown', payload })
  }
  return { header, items }
}

/**
 * What /__mock/sentry/events shows of one event: strings only. A field of the wrong type is left out rather than
 * passed on off the schema.
 */
export function summariseEvent(
  type: string,
  payload: unknown,
  headerId: unknown,
  receivedAt: string,
): SentryEvent {
  const event = isRecord(payload) ? payload : {}
  const exception = isRecord(event.exception) ? event.exception.values : undefined
  const values = (Array.isArray(exception) ? exception : []).filter(isRecord).map((item) => {
    const name = text(item.type)
    const value = text(item.value)
    return { ...(name !== undefined && { type: name }), ...(value !== undefined && { value }) }
  })
  const first = values[0]
  const message =
    text(event.message) ?? (first ? `${first.type ?? 'Error'}: ${first.value ?? ''}` : undefined)
  const summary: SentryEvent = {
    event_id: text(event.event_id) ?? text(headerId) ?? createId(),
    type,
    received_at: receivedAt,
  }
  for (const key of ['level', 'environment', 'release', 'transaction'] as const) {
    const value = text(event[key])
    if (value !== undefined) summary[key] = value
  }
  if (message !== undefined) summary.message = message
  if (values.length > 0) summary.exception = values
  if (isRecord(event.tags)) summary.tags = event.tags
  return summary
}

/** Reads an OpenReplay batch: BatchMetadata headers (type 81) and size-prefixed messages. */
export function readRecorderMessages(bytes: Uint8Array): { type: number; strings: string[] }[] {
  const messages: { type: number; strings: string[] }[] = []
  let offset = 0
  const uint = () => {
    let value = 0
    let scale = 1
    while (offset < bytes.length) {
      const byte = bytes[offset++]!
      value += (byte & 0x7f) * scale
      if ((byte & 0x80) === 0) return value
      scale *= 128
    }
    throw new Error('Failed to read a recorder batch: truncated number.')
  }
  const string = (end: number) => {
    const length = uint()
    if (offset + length > end) throw new Error('Failed to read a recorder batch: truncated string.')
    const value = Buffer.from(bytes.subarray(offset, offset + length)).toString('utf8')
    offset += length
    return value
  }
  while (offset < bytes.length) {
    const type = uint()
    if (type === 81) {
      for (let field = 0; field < 4; field += 1) uint()
      string(bytes.length)
      continue
    }
    if (offset + 3 > bytes.length) throw new Error('Failed to read a recorder batch: truncated size.')
    const size = bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16)
    offset += 3
    const end = offset + size
    if (end > bytes.length) throw new Error('Failed to read a recorder batch: a message overruns it.')
    // UserID (28) is one string; Metadata (30) is a key and a value.
    const strings = type === 28 ? [string(end)] : type === 30 ? [string(end), string(end)] : []
    messages.push({ type, strings })
    offset = end
  }
  return messages
}
