/**
 * The one client of the mock server's control surface (`/__mock`), used by both suites, the QA command line and the
 * QA panel. Must not import Node modules: the QA panel bundles it, so `fetch` is injected.
 * It sends the control token when given (docs/security/surface.md); a non-2xx answer throws `MockClientError`.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './control.gen.ts'

type Schemas = components['schemas']
export type Mail = Schemas['Mail']
export type JournalEntry = Schemas['JournalEntry']
export type Har = Schemas['Har']
export type Clock = Schemas['Clock']
export type ScenarioName = Schemas['ScenarioName']
export type ScenarioInfo = Schemas['ScenarioInfo']
export type ArmedScenario = Schemas['ArmedScenario']
export type SentryEvent = Schemas['SentryEvent']
export type RecorderSession = Schemas['RecorderSession']
export type MockState = Schemas['MockState']

/** The JSON body an operation takes, as the control document states it. */
type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
  ? Body
  : never

/** What `POST /__mock/scenarios` takes. */
export type ArmRequest = JsonBody<paths['/__mock/scenarios']['post']>
/** What `POST /__mock/clock` takes: an advance or a new time. */
export type ClockChange = JsonBody<paths['/__mock/clock']['post']>
/** The query of `GET /__mock/requests` (its filters; `journal` and `har` set the format). */
export type JournalQuery = Omit<
  NonNullable<paths['/__mock/requests']['get']['parameters']['query']>,
  'format'
>
export type MailPurpose = Mail['purpose']

/** The header the mock server reads the control token from (mock-server/control.openapi.yaml). */
export const CONTROL_TOKEN_HEADER = 'X-Mock-Control-Token'

/** An answer of the control surface other than 2xx, with its status, its error code and its body. */
export class MockClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The `error` of the body (`control_token_required`, `host_not_allowed`, `validation_failed`, ...). */
    readonly code: string | undefined,
    /** The body as answered (parsed JSON, or text). */
    readonly body: unknown,
  ) {
    super(message)
    this.name = 'MockClientError'
  }
}

export interface MockClientOptions {
  /** The mock server's origin, e.g. http://127.0.0.1:4010. */
  baseUrl: string
  /** The server's control token, when it has one. */
  controlToken?: string
  /** The network (default: the global fetch). */
  fetch?: (input: Request) => Promise<Response>
  /**
   * How long `latestCode` keeps looking for a code (default 0: one look).
   * A browser test may ask before the server has mailed it.
   */
  codeWaitMs?: number
}

export type MockClient = ReturnType<typeof createMockClient>

const CODE_POLL_MS = 100

function describeRefusal(error: unknown): { code: string | undefined; message: string | undefined } {
  if (typeof error !== 'object' || error === null) return { code: undefined, message: undefined }
  const { error: code, message } = error as { error?: unknown; message?: unknown }
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? message : undefined,
  }
}

/**
 * @example
 * const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', controlToken: process.env.MOCK_CONTROL_TOKEN })
 * await mock.arm({ name: 'access-token-expired', email: 'ada@example.com', operation: 'getMe' })
 * const code = await mock.latestCode('ada@example.com', 'login')
 */
export function createMockClient({ baseUrl, controlToken, fetch, codeWaitMs = 0 }: MockClientOptions) {
  const client = createClient<paths>({
    baseUrl,
    ...(fetch && { fetch }),
    headers: { Accept: 'application/json', ...(controlToken && { [CONTROL_TOKEN_HEADER]: controlToken }) },
  })

  // Any answer but 2xx throws here, with the server's message, before a caller reads `data`.
  client.use({
    async onResponse({ request, response, schemaPath }) {
      if (response.ok) return undefined
      const text = await response.clone().text()
      let body: unknown = text === '' ? undefined : text
      try {
        body = JSON.parse(text)
      } catch {
        // not JSON: the text is the body
      }
      const { code, message } = describeRefusal(body)
      const reason = (message ?? `status ${response.status}`).replace(/\.$/, '')
      throw new MockClientError(
        `Failed to call ${request.method} ${schemaPath}: ${reason}.`,
        response.status,
        code,
        body,
      )
    },
  })
  /** The body of an answer (a 2xx one: the others threw). */
  const bodyOf = async <Data>(call: Promise<{ data?: Data }>): Promise<Data> => (await call).data as Data

  const mock = {
    /** Back to the seed state: accounts, clock, scenarios, mailbox, journal. */
    reset: () => bodyOf(client.POST('/__mock/reset', { body: {} })),
    clock: () => bodyOf(client.GET('/__mock/clock')),
    setClock: (change: ClockChange) => bodyOf(client.POST('/__mock/clock', { body: change })),
    advanceClock: (ms: number) => mock.setClock({ advance_ms: ms }),
    /** The scenarios that can be armed, and those armed now. */
    scenarios: () => bodyOf(client.GET('/__mock/scenarios')),
    arm: (scenario: ArmRequest) => bodyOf(client.POST('/__mock/scenarios', { body: scenario })),
    /** Disarms every scenario, or one account's. */
    clearScenarios: (email?: string) =>
      bodyOf(client.DELETE('/__mock/scenarios', { params: { query: { email } } })),
    /** The mails sent, oldest first: one address's, or all. */
    mailbox: async (email?: string): Promise<Mail[]> =>
      (await bodyOf(client.GET('/__mock/mailbox', { params: { query: { email } } }))).messages,
    /**
     * The code of the newest `purpose` mail to `email`; throws when there is none (after `codeWaitMs`).
     * @example const code = await mock.latestCode('grace@example.com', 'reset')
     */
    async latestCode(email: string, purpose: MailPurpose): Promise<string> {
      const deadline = Date.now() + codeWaitMs
      for (;;) {
        const code = (await mock.mailbox(email)).filter((mail) => mail.purpose === purpose).at(-1)?.code
        if (code) return code
        if (Date.now() >= deadline) throw new Error(`Failed to read a code: no ${purpose} mail for ${email}.`)
        await new Promise((resolve) => setTimeout(resolve, CODE_POLL_MS))
      }
    },
    /** The request journal, oldest first, filtered by the query. */
    async journal(query: JournalQuery = {}): Promise<JournalEntry[]> {
      const body = await bodyOf(client.GET('/__mock/requests', { params: { query } }))
      if (!('requests' in body))
        throw new Error('Failed to read the journal: the answer is not { requests }.')
      return body.requests
    },
    /** The same entries as an HTTP Archive 1.2, secrets redacted (docs/decisions/017-har-record-and-replay.md). */
    async har(query: JournalQuery = {}): Promise<Har> {
      const body = await bodyOf(
        client.GET('/__mock/requests', { params: { query: { ...query, format: 'har' } } }),
      )
      if (!('log' in body)) throw new Error('Failed to read the journal as HAR: the answer has no log.')
      return body
    },
    /** One account's journal, after `since` (a seq) when given. */
    requests: (email: string, since?: number) =>
      mock.journal({ email, ...(since !== undefined && { since: String(since) }) }),
    /** The journal's last seq so far (every account), 0 when empty: a `since` for what a test does next. */
    lastSeq: async () => (await mock.journal()).at(-1)?.seq ?? 0,
    /** What the error-reporting sink received, oldest first. */
    sentryEvents: async (): Promise<SentryEvent[]> =>
      (await bodyOf(client.GET('/__mock/sentry/events'))).events,
    /** The session recordings the recorder's sink saw, oldest first. */
    recorderSessions: async (): Promise<RecorderSession[]> =>
      (await bodyOf(client.GET('/__mock/recorder/sessions'))).sessions,
    /**
     * What the server holds, secrets as fingerprints. Read it before and after a call to see what changed.
     */
    state: (): Promise<MockState> => bodyOf(client.GET('/__mock/state')),
    /** Serves `id` as the newest build (`/builds/latest.json`): a deployment acted out. */
    serveBuild: (id: string) => bodyOf(client.POST('/__mock/build', { body: { id } })),
  }
  return mock
}
