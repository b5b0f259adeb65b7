// The MSW host: one `http.*` handler per operation of both documents, each running the same dispatch
// as the Express host. Used by the web app's unit and component tests through msw/node.
import { http, HttpResponse, type HttpHandler } from 'msw'
import { createMockCore, type MockCore, type MockOptions } from '../core.ts'
import { createRoutes } from '../pipeline/openapi-docs.ts'
import { bodyFrom } from '../pipeline/raw.ts'

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
  const core = createMockCore({
    ...options,
    allowedHosts: [
      ...(options.allowedHosts ?? []),
      ...(options.baseUrl ? [new URL(options.baseUrl).hostname] : []),
    ],
  })
  const routes = [...createRoutes('api'), ...createRoutes('control')].filter(
    (route) => !core.production || !route.mockOnly,
  )
  const handlers = routes.map((route) => {
    const path = `${base}${route.template.replace(/\{([^}]+)\}/g, ':$1')}`
    return http[route.method.toLowerCase() as Method](path, async ({ request, cookies }) => {
      const url = new URL(request.url)
      const headers: Record<string, string | undefined> = {}
      request.headers.forEach((value, name) => (headers[name.toLowerCase()] = value))
      if (headers.cookie === undefined && Object.keys(cookies).length > 0) {
        headers.cookie = Object.entries(cookies)
          .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
          .join('; ')
      }
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
      const raw = await core.dispatch({
        method: request.method,
        url: url.pathname + url.search,
        headers,
        readBody: hasBody
          ? async (maxBytes) => bodyFrom(new Uint8Array(await request.arrayBuffer()))(maxBytes)
          : bodyFrom(undefined),
        ip: '127.0.0.1',
        secure: url.protocol === 'https:',
        origin: url.origin,
      })
      if (!raw) return undefined
      // A network error for fetch: the client never learns what the call did.
      if (raw.dropped) return HttpResponse.error()
      const responseHeaders = new Headers()
      for (const [name, value] of Object.entries(raw.headers)) {
        for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one)
      }
      return new HttpResponse(raw.body ?? null, { status: raw.status, headers: responseHeaders })
    })
  })
  return { handlers, core }
}
