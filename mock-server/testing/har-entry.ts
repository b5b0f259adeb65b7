// One HAR 1.2 entry as a browser writes it, and a file of such entries: the tests of --replay and of reading a HAR
// build theirs here and name only what each is about (a method, a status, headers, a content).

interface HarHeader {
  name: string
  value: string
}

export interface HarEntryOptions {
  /** Default GET. */
  method?: string
  /** Default 2026-11-26T10:00:00.000Z. */
  startedDateTime?: string
  response?: {
    /** Default 200 OK. */
    status?: number
    statusText?: string
    headers?: HarHeader[]
    /** Default an empty JSON content of unknown size. */
    content?: Record<string, unknown>
  }
}

/**
 * @example harEntry('https://app.example/api/me', { response: { status: 401 } })
 */
export function harEntry(url: string, options: HarEntryOptions = {}) {
  const response = options.response ?? {}
  return {
    startedDateTime: options.startedDateTime ?? '2026-11-26T10:00:00.000Z',
    time: 1,
    request: {
      method: options.method ?? 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [] as HarHeader[],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: response.status ?? 200,
      statusText: response.statusText ?? 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: response.headers ?? [],
      content: response.content ?? { size: -1, mimeType: 'application/json' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

export type HarEntry = ReturnType<typeof harEntry>

/** A HAR 1.2 file of `entries`, written by `creator`. */
export function harOf<Entry = HarEntry>(entries: Entry[], creator = { name: 'test', version: '1' }) {
  return { log: { version: '1.2', creator, entries } }
}
