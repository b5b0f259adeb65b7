// A fetch that records every request and answers from a handler, like openapi-fetch's `createObservedClient`.

export interface RecordedCall {
  method: string
  path: string
  authorization: string | null
  body: string
}

export type FakeHandler = (request: Request, body: string, call: RecordedCall) => Response | Promise<Response>

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export function createRecordingFetch(handler: FakeHandler) {
  const calls: RecordedCall[] = []
  const fetch = async (request: Request): Promise<Response> => {
    const body = await request.text()
    const call = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('Authorization'),
      body,
    }
    calls.push(call)
    return handler(request, body, call)
  }
  return {
    fetch,
    calls,
    /** The calls to one path, optionally of one method. */
    callsTo: (path: string, method?: string) =>
      calls.filter((c) => c.path === path && (method === undefined || c.method === method)),
  }
}
