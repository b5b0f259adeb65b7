// Renders one page alone with stand-in services, for states the mock server cannot act out on demand.
// Everything else is tested through the whole app (app-harness.tsx).
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router-dom'
import { createApiClient, type ApiClient } from '../api/client.ts'
import { createErrorReporter } from '../lib/monitoring/error-queue.ts'
import { DEFAULT_RUNTIME_CONFIG } from '../lib/config/runtime-config.ts'
import { createChunkLoads } from '../lib/navigation/chunk-loads.ts'
import { ServicesProvider, type Services } from '../lib/services/services.ts'
import { createToasts } from '../lib/toasts/toasts.ts'

/**
 * The app's API client over a fetch that answers from `answers` by path. A path without an answer never settles.
 */
export function createStubApi(answers: Record<string, unknown>): ApiClient {
  const fetch = (request: Request) => {
    const { pathname } = new URL(request.url)
    return pathname in answers
      ? Promise.resolve(Response.json(answers[pathname]))
      : new Promise<Response>(() => {})
  }
  const session = {
    getAccessToken: () => null,
    getGeneration: () => 0,
    handleUnauthorized: async () => null,
    handleRetried: () => undefined,
  }
  return createApiClient({ fetch, session, baseUrl: 'http://app.test' })
}

export function renderPage(page: ReactElement, overrides: Partial<Services> = {}) {
  const services = {
    config: DEFAULT_RUNTIME_CONFIG,
    userAgent: navigator.userAgent,
    errors: createErrorReporter(),
    origin: 'http://app.test',
    toasts: createToasts(),
    chunks: createChunkLoads(),
    afterFirstPaint: () => Promise.resolve(),
    ...overrides,
  } as Services
  return render(
    <ServicesProvider services={services}>
      <MemoryRouter>{page}</MemoryRouter>
    </ServicesProvider>,
  )
}
