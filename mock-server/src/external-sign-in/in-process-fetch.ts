// The fetch the product's relying party uses to reach the mock's own provider (/idp): the same request, answered by
// the server's own pipeline in process instead of over a socket, so it works whatever address the server is reached
// at (a proxy's public origin included) and costs no connection. Everything else about it is HTTP: method, URL,
// headers, body and answer go through the dispatcher as a client's would (docs/decisions/022-openid-provider.md).
import type { Dispatch } from '../pipeline/dispatch.ts'
import { fromFetchRequest, toFetchResponse } from '../pipeline/raw.ts'
import type { CustomFetch } from './relying-party.ts'

/** `dispatch` is looked up at each call: the pipeline is assembled after the relying party. */
export function createInProcessFetch(getDispatch: () => Dispatch): CustomFetch {
  return async (url, options) => {
    const request = new Request(url, options as RequestInit)
    const answer = await getDispatch()(fromFetchRequest(request, { host: new URL(url).host }))
    return answer ? toFetchResponse(answer) : new Response(null, { status: 404 })
  }
}
