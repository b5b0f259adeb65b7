// Renders one page alone with stand-in services, for the states the mock server does not act out on demand (a
// call still on its way, an empty list). Everything else is tested through the whole app (app-harness.tsx).
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router-dom'
import type { ApiClient } from '../api/client.ts'
import { createErrorReporter } from '../lib/monitoring/error-reporter.ts'
import { DEFAULT_RUNTIME_CONFIG } from '../lib/config/runtime-config.ts'
import { ServicesProvider, type Services } from '../lib/services/services.ts'

/** An API client whose GETs answer from `answers` by path; a path without an answer never settles. */
export function createStubApi(answers: Record<string, unknown>): ApiClient {
  const GET = (path: string) =>
    path in answers
      ? Promise.resolve({ data: answers[path], response: new Response(null, { status: 200 }) })
      : new Promise(() => {})
  return { GET } as unknown as ApiClient
}

export function renderPage(page: ReactElement, overrides: Partial<Services> = {}) {
  const services = {
    config: DEFAULT_RUNTIME_CONFIG,
    userAgent: navigator.userAgent,
    errors: createErrorReporter(),
    origin: 'http://app.test',
    ...overrides,
  } as Services
  return render(
    <ServicesProvider services={services}>
      <MemoryRouter>{page}</MemoryRouter>
    </ServicesProvider>,
  )
}
