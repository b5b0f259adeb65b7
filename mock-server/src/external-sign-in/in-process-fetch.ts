// The fetch the product's relying party uses to reach the mock's own provider (/idp): the same request, answered by
// the server's own pipeline in process instead of over a socket, so it works whatever address the server is reached
// at (a proxy's public origin included) and costs no connection. Everything else about it is HTTP: method, URL,
// headers, body and answer go through the dispatcher as a client's would (docs/decisions/022-openid-provider.md).
import type { Dispatch } from '../pipeline/dispatch.ts'
import { bodyFrom, type RawRequest } from '../pipeline/raw.ts'
import type { CustomFetch } from './relying-party.ts'

/** `dispatch` is looked up at each call: the pipeline is assembled after the relying party. */
export function createInProcessFetch(getDispatch: () => Dispatch): CustomFetch {
  return async (url, options) => {
    const target = new URL(url)
    const headers: Record<string, string> = { host: target.host }
    for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value
    const body =
      options.body === undefined || options.body === null
        ? undefined
        : new Uint8Array(await new Response(options.body as BodyInit).arrayBuffer())
    const raw: RawRequest = {
      method: options.method,
      url: `${target.pathname}${target.search}`,
      headers,
      readBody: bodyFrom(body),
      ip: '127.0.0.1',
      secure: target.protocol === 'https:',
      origin: target.origin,
    }
    const answer = await getDispatch()(raw)
    if (!answer) return new Response(null, { status: 404 })
    const responseHeaders = new Headers()
    for (const [name, value] of Object.entries(answer.headers))
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one)
    return new Response(answer.status === 204 ? null : (answer.body ?? null), {
      status: answer.status,
      headers: responseHeaders,
    })
  }
}
