// The file `npm run mock -- --replay <file.har>` serves, checked whole at start so a bad file stops the start
// (main.ts exits 2), never a request. Only what a replay matches and answers with is read
// (docs/decisions/017-har-record-and-replay.md).
import { readFileSync } from 'node:fs'
import { validateHeaderName, validateHeaderValue } from 'node:http'
import { z } from 'zod'

/** One recorded call, as the replay matches it and answers with it. */
export interface RecordedCall {
  /** Its index in the file's `log.entries`, counting from 0. */
  index: number
  method: string
  /** The URL's path, as the WHATWG URL parser writes it. */
  path: string
  query: [string, string][]
  /** The request body, when one was recorded. */
  body?: { mimeType: string; text: string }
  /** The mock server's `_bodyOmitted: "refused"`: a body was sent and refused, so none was recorded. */
  bodyOmitted?: 'refused'
  response: {
    /** 200 to 599; -1 or 0 (a browser's request that got no answer): the replay drops the connection. */
    status: number
    headers: [string, string][]
    /**
     * The content, when the file has it: its text, or its bytes when the file has them in base64 (an image, a
     * favicon: Chromium writes any answer that is not text so), served as they are.
     */
    body?: RecordedContent
  }
}

export type RecordedContent =
  { mimeType: string; text: string } | { mimeType: string; bytes: Uint8Array<ArrayBuffer> }

export interface LoadedHar {
  /** The product API's calls (paths under /api/), oldest first. */
  calls: RecordedCall[]
  /** Entries the replay never answers with: the web app's files, other paths. */
  ignored: number
}

/** The paths a replay answers from the file; everything else is served as usual (the web app, /__mock, /builds). */
export const REPLAYED_PATHS = /^\/api\//

const nameValue = z.object({ name: z.string(), value: z.string() })

/** What a replay reads of a HAR 1.2 entry; anything else in the file is left alone. */
const entrySchema = z.object({
  startedDateTime: z.string(),
  request: z.object({
    method: z.string().min(1),
    url: z.string().min(1),
    headers: z.array(nameValue),
    queryString: z.array(nameValue),
    _bodyOmitted: z.string().optional(),
    postData: z
      .object({
        mimeType: z.string(),
        text: z.string().optional(),
        params: z.array(z.object({ name: z.string(), value: z.string().optional() })).optional(),
      })
      .optional(),
  }),
  response: z.object({
    status: z.number().int(),
    headers: z.array(nameValue),
    content: z.object({
      mimeType: z.string().optional(),
      text: z.string().optional(),
      encoding: z.string().optional(),
    }),
  }),
})

const harSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    entries: z.array(entrySchema),
  }),
})

/**
 * Reads and checks the file; throws `Failed to start: --replay <file>: ...` (one line, quoting nothing of the file's
 * content: a HAR from a browser holds passwords and tokens in clear).
 */
export function readHarFile(file: string): LoadedHar {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'there is no such file' : `it cannot be read (${code ?? 'unknown error'})`
    throw new Error(`Failed to start: --replay ${file}: ${why}.`, { cause: error })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1]
    throw new Error(
      `Failed to start: --replay ${file}: it is not JSON${at ? ` (at character ${at})` : ''}.`,
      {
        cause: error,
      },
    )
  }
  return parseHar(json, file)
}

/** A parsed file's calls to replay; throws `Failed to start: --replay <file>: it is not a HAR 1.2 file: ...`. */
export function parseHar(json: unknown, file: string): LoadedHar {
  const version = (json as { log?: { version?: unknown } } | null)?.log?.version
  const notHar = (why: string) =>
    new Error(`Failed to start: --replay ${file}: it is not a HAR 1.2 file: ${why}.`)
  if (typeof json !== 'object' || json === null || !('log' in json)) throw notHar('it has no log')
  if (version !== '1.2') throw notHar(`log.version is ${JSON.stringify(version) ?? 'missing'}, not "1.2"`)
  const parsed = harSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw notHar(`${issue.path.join('.')}: ${issue.message}`)
  }
  const calls: RecordedCall[] = []
  let ignored = 0
  parsed.data.log.entries.forEach((entry, index) => {
    const url = new URL(entry.request.url, 'http://replay.invalid')
    // Left out before their content is decoded: a page's images are never served from the file.
    if (!REPLAYED_PATHS.test(url.pathname)) return void (ignored += 1)
    const call = toRecordedCall(entry, index, url, file)
    if (!isReplayableStatus(call.response.status))
      throw new Error(
        `Failed to start: --replay ${file}: log.entries.${index}.response.status is ${call.response.status}: a replay answers 200 to 599, or -1 or 0 for a request that got no answer.`,
      )
    calls.push(call)
  })
  // Oldest first, as the specification prefers files written; a file with a date that does not parse keeps its order.
  const started = new Map(
    calls.map((call) => [call, Date.parse(parsed.data.log.entries[call.index]!.startedDateTime)]),
  )
  if ([...started.values()].every(Number.isFinite))
    calls.sort((a, b) => started.get(a)! - started.get(b)! || a.index - b.index)
  return { calls, ignored }
}

function toRecordedCall(
  entry: z.infer<typeof entrySchema>,
  index: number,
  url: URL,
  file: string,
): RecordedCall {
  const postData = entry.request.postData
  const text =
    postData?.text ??
    (postData?.params
      ? new URLSearchParams(postData.params.map(({ name, value }) => [name, value ?? ''])).toString()
      : undefined)
  const body = toRecordedContent(entry.response.content, index, file)
  return {
    index,
    method: entry.request.method.toUpperCase(),
    path: url.pathname,
    query: [...url.searchParams],
    ...(postData && text !== undefined && { body: { mimeType: postData.mimeType, text } }),
    ...(entry.request._bodyOmitted === 'refused' && { bodyOmitted: 'refused' as const }),
    response: {
      status: entry.response.status,
      headers: entry.response.headers
        .filter(({ name, value }) => isSendableHeader(name, value))
        .map(({ name, value }) => [name.toLowerCase(), value]),
      ...(body && { body }),
    },
  }
}

/**
 * The answer's text, or its bytes when the file has them in base64; throws on a base64 text that is not base64 and on
 * another encoding.
 */
function toRecordedContent(
  content: z.infer<typeof entrySchema>['response']['content'],
  index: number,
  file: string,
): RecordedContent | undefined {
  if (content.text === undefined) return undefined
  const mimeType = content.mimeType ?? 'application/octet-stream'
  if (content.encoding === undefined || content.encoding === '') return { mimeType, text: content.text }
  // HAR 1.2 names base64 only: the bytes of any other encoding cannot be known, so they are not guessed.
  if (content.encoding !== 'base64')
    throw new Error(
      `Failed to start: --replay ${file}: log.entries.${index}.response.content.encoding is not base64, the only encoding replayed.`,
    )
  const bytes = decodeBase64(content.text)
  if (bytes) return { mimeType, bytes }
  // Served as it is, garbage would reach the client as other bytes than were recorded.
  throw new Error(
    `Failed to start: --replay ${file}: log.entries.${index}.response.content.text is not base64, as its encoding says.`,
  )
}

/**
 * The bytes of a base64 text (RFC 4648, padding optional), or null. Node's decoder skips what is not base64, so
 * garbage would be served as other bytes; a text that does not round-trip is refused instead.
 */
function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const bytes = Buffer.from(text, 'base64')
  return bytes.toString('base64').replace(/=+$/, '') === text.replace(/={1,2}$/, '') ? bytes : null
}

/**
 * Whether Node would send this header: a recorded value with a line break, a NUL or any other character Node refuses
 * (`ERR_INVALID_CHAR`) is dropped when the file is loaded, never sent (docs/decisions/017-har-record-and-replay.md).
 */
export function isSendableHeader(name: string, value: string): boolean {
  try {
    validateHeaderName(name)
    validateHeaderValue(name, value)
    return true
  } catch {
    return false
  }
}

/**
 * 200 to 599, or -1 and 0 (a browser's "no answer"): a 1xx is no final answer (a 101 left the client waiting) and
 * anything above 599 is no HTTP status (docs/decisions/017-har-record-and-replay.md).
 */
export function isReplayableStatus(status: number): boolean {
  return status === -1 || status === 0 || (status >= 200 && status <= 599)
}
