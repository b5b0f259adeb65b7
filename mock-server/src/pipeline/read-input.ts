// The input step of the pipeline (pipeline/dispatch.ts): parameters, then the body, each checked against its
// schema. An operation that takes no body never reads one, so no 400, 413 or 415 about a body comes from it.
import type { Route } from './openapi-docs.ts'
import { errorResponse, type RawRequest, type RawResponse } from './raw.ts'
import { validateBody, validateParameters, type Parameters } from './validate.ts'

export type Input = Parameters & { body: unknown }

/** One decoder for every body: a decode without `stream` keeps no state between calls, and a new one costs more. */
const UTF8 = new TextDecoder()

export async function readInput(
  route: Route,
  raw: RawRequest,
  url: URL,
): Promise<Input | { response: RawResponse }> {
  const parameters = validateParameters(route, url)
  if ('response' in parameters) return parameters
  if (!route.bodyType) return { body: undefined, ...parameters }
  const body = await readBody(route, route.bodyType, raw)
  if ('response' in body) return body
  return { body: body.value, ...parameters }
}

async function readBody(
  route: Route,
  bodyType: string,
  raw: RawRequest,
): Promise<{ value: unknown } | { response: RawResponse }> {
  // Binary bodies (the recorder's batches and images) come with whatever type the sender's fetch gave them: their
  // documents say so with `*/*`, and they are read as bytes.
  const binary = bodyType === '*/*'
  const mediaType = raw.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  if (!binary && mediaType !== bodyType) {
    return { response: errorResponse(415, 'unsupported_media_type', `Send the body as ${bodyType}.`) }
  }
  const bytes = await raw.readBody(route.maxBodyBytes)
  if (bytes === 'too_large') {
    return { response: errorResponse(413, 'payload_too_large', `Send at most ${route.maxBodyBytes} bytes.`) }
  }
  if (bytes === 'unsupported_encoding') {
    return {
      response: errorResponse(415, 'unsupported_media_type', 'Send the body as gzip, deflate or unencoded.'),
    }
  }
  if (bytes === 'unreadable') {
    return { response: errorResponse(400, 'bad_request', 'The request could not be read.') }
  }
  if (binary) return { value: bytes }
  const value = decodeBody(bodyType, UTF8.decode(bytes))
  if (value === undefined)
    return { response: errorResponse(400, 'invalid_json', 'The body is not valid JSON.') }
  return validateBody(route, value) ?? { value }
}

function decodeBody(type: string, text: string): unknown {
  if (type === 'application/x-www-form-urlencoded')
    return Object.fromEntries(new URLSearchParams(text).entries())
  if (type === 'text/plain') return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
