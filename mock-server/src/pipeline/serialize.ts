// The last step of the pipeline (pipeline/dispatch.ts): a handler's output as the host sends it, with its cookies, the
// no-store every answer carries and, for an operation that takes CORS (`x-cors`), the CORS headers.
import type { AnyOutput } from './types.ts'
import { serializeCookie, type CookieContext } from './cookies.ts'
import type { Route } from './openapi-docs.ts'
import { jsonResponse, type RawRequest, type RawResponse } from './raw.ts'

export function serialize(
  route: Route,
  output: AnyOutput,
  raw: RawRequest,
  { dropped, crossOrigin = false }: { dropped?: true; crossOrigin?: boolean } = {},
): RawResponse {
  const response: RawResponse = {
    ...toRaw(output, { secure: raw.secure, crossOrigin }),
    ...(dropped && { dropped }),
  }
  if (route.cors) Object.assign(response.headers, corsHeaders(raw.headers.origin))
  return response
}

export function toRaw(output: AnyOutput, cookie: CookieContext): RawResponse {
  const headers: Record<string, string | string[]> = { ...output.headers }
  if (output.cookies?.length)
    headers['set-cookie'] = output.cookies.map((instruction) => serializeCookie(instruction, cookie))
  if (output.body === undefined) {
    return { status: output.status, headers: { 'cache-control': 'no-store', ...headers }, body: undefined }
  }
  if (typeof output.body === 'string') {
    return {
      status: output.status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
      body: output.body,
    }
  }
  return jsonResponse(output.status, output.body, headers)
}

export function corsHeaders(origin: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': origin ?? '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, content-encoding, datatype',
    'access-control-max-age': '600',
    vary: 'Origin',
  }
}
