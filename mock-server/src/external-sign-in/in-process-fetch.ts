// The fetch the relying party uses to reach the mock's own provider (/idp), answered by the pipeline in process.
// It works at whatever address the server is reached at and costs no connection, yet stays plain HTTP through
// the dispatcher (docs/decisions/022-openid-provider.md).
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
