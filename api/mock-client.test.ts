import { describe, expect, test } from 'vitest'
import { createMockClient, MockClientError, type Mail } from './mock-client.ts'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const mail = (purpose: Mail['purpose'], code?: string): Mail => ({
  to: 'ada@example.com',
  subject: 'Your code',
  purpose,
  ...(code && { code }),
  sent_at: '2030-01-01T00:00:00.000Z',
})

/** A fetch that answers from `answer` and keeps what it was asked. */
function fakeFetch(answer: (request: Request) => Response | Promise<Response>) {
  const seen: Request[] = []
  const fetch = async (request: Request) => {
    seen.push(request.clone())
    return answer(request)
  }
  return { fetch, seen }
}

describe('createMockClient', () => {
  test('sends the control token and a JSON body, and gives the documented body back', async () => {
    const armed = { id: 's1', name: 'latency', remaining: 1, armed_at: '2030-01-01T00:00:00.000Z' }
    const { fetch, seen } = fakeFetch(() => json(201, armed))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', controlToken: 'secret', fetch })
    expect(await mock.arm({ name: 'latency', delay_ms: 300 })).toEqual(armed)
    const [request] = seen
    expect(request!.method).toBe('POST')
    expect(request!.url).toBe('http://127.0.0.1:4010/__mock/scenarios')
    expect(request!.headers.get('x-mock-control-token')).toBe('secret')
    expect(request!.headers.get('content-type')).toBe('application/json')
    expect(await request!.json()).toEqual({ name: 'latency', delay_ms: 300 })
  })

  test('sends no token when it has none, and the query of a journal read', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { requests: [] }))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch })
    expect(await mock.requests('ada@example.com', 7)).toEqual([])
    expect(seen[0]!.headers.has('x-mock-control-token')).toBe(false)
    expect(new URL(seen[0]!.url).search).toBe('?email=ada%40example.com&since=7')
  })

  test('an answer other than 2xx throws, with the status, the error code and the body', async () => {
    const refusal = { error: 'control_token_required', message: 'This mock server needs its control token.' }
    const { fetch } = fakeFetch(() => json(401, refusal))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch })
    const error = await mock.clock().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MockClientError)
    expect((error as Error).message).toBe(
      'Failed to call GET /__mock/clock: This mock server needs its control token.',
    )
    expect(error).toMatchObject({
      status: 401,
      code: 'control_token_required',
      body: refusal,
    })
  })

  test('an empty refusal names its status', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 503 }))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch })
    await expect(mock.reset()).rejects.toThrow('Failed to call POST /__mock/reset: status 503.')
    await expect(mock.reset()).rejects.toMatchObject({
      status: 503,
      code: undefined,
      body: undefined,
    })
  })
})

describe('latestCode', () => {
  test('reads the code of the newest mail of the purpose', async () => {
    const messages = [mail('login', '111111'), mail('reset', '222222'), mail('login', '333333')]
    const { fetch } = fakeFetch(() => json(200, { messages }))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch })
    expect(await mock.latestCode('ada@example.com', 'login')).toBe('333333')
    expect(await mock.latestCode('ada@example.com', 'reset')).toBe('222222')
  })

  test('throws when no such mail carries a code', async () => {
    const { fetch } = fakeFetch(() => json(200, { messages: [mail('account_exists')] }))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch })
    await expect(mock.latestCode('ada@example.com', 'signup')).rejects.toThrow(
      'Failed to read a code: no signup mail for ada@example.com.',
    )
  })

  test('with codeWaitMs, keeps looking until the mail arrives', async () => {
    let reads = 0
    const { fetch } = fakeFetch(() => json(200, { messages: ++reads < 3 ? [] : [mail('signup', '444444')] }))
    const mock = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch, codeWaitMs: 5_000 })
    expect(await mock.latestCode('ada@example.com', 'signup')).toBe('444444')
    expect(reads).toBe(3)
  })
})
