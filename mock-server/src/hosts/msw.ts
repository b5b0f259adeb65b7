// The MSW host: one handler per operation, running the same dispatch as the Node host (pipeline/raw.ts).
// The web app's tests use it through msw/node, and the demo in a service worker.
import { http, HttpResponse, type HttpHandler } from 'msw'
import { createMockCore, type MockCore, type MockOptions } from '../core.ts'
import { createCompiledDocuments } from '../pipeline/openapi-docs.ts'
import { fromFetchRequest, toFetchResponse } from '../pipeline/raw.ts'

export interface MswHostOptions extends MockOptions {
  /** Origin the handlers answer for, e.g. http://localhost:3000; default: any origin. */
  baseUrl?: string
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options'

/**
 * @example
 * const { handlers, core } = createMswHandlers({ hasher: { memoryCost: 1024, timeCost: 1 } })
 * const server = setupServer(...handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 * core.ops.mailbox.list('ada@example.com') // the codes "sent"
 */
export function createMswHandlers(options: MswHostOptions = {}): { handlers: HttpHandler[]; core: MockCore } {
  const base = options.baseUrl ?? '*'
  // In process there is no name to re-bind: /__mock answers at the origin the handlers serve.
  // One compilation of the documents, for the core's dispatcher and for the handlers' paths.
  const documents = options.documents ?? createCompiledDocuments()
  const core = createMockCore({
    ...options,
    documents,
    allowedHosts: [
      ...(options.allowedHosts ?? []),
      ...(options.baseUrl ? [new URL(options.baseUrl).hostname] : []),
    ],
  })
  const routes = [...documents.routes('api'), ...documents.routes('control')].filter(
    (route) => !core.production || !route.mockOnly,
  )
  const handlers = routes.map((route) => {
    const path = `${base}${route.template.replace(/\{([^}]+)\}/g, ':$1')}`
    return http[route.method.toLowerCase() as Method](path, async ({ request, cookies }) => {
      const raw = fromFetchRequest(request)
      // In a browser the page's cookies are not on the request: MSW hands them over apart.
      if (raw.headers.cookie === undefined && Object.keys(cookies).length > 0) {
        raw.headers.cookie = Object.entries(cookies)
          .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
          .join('; ')
      }
      const answer = await core.dispatch(raw)
      if (!answer) return undefined
      // A network error for fetch: the client never learns what the call did.
      return answer.dropped ? HttpResponse.error() : toFetchResponse(answer)
    })
  })
  return { handlers, core }
}
