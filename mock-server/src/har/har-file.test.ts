// What --replay takes (docs/decisions/017-har-record-and-replay.md): a HAR 1.2 file, read whole at start; anything
// else stops the start with one line naming the file and what is wrong, quoting nothing of its content.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { harEntry, harOf } from '../../testing/har-entry.ts'
import { parseHar, readHarFile, type RecordedCall } from './har-file.ts'

// Made in beforeAll, not at import: a run that filters out every test here (a mutation run) runs no hook.
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'har-file-'))
  return () => rmSync(dir, { recursive: true, force: true })
})

/** A recorded GET (its method as some browsers write it) whose answer is the JSON `{}`, base64 in the file. */
function entry(url: string, started: string) {
  return harEntry(url, {
    method: 'get',
    startedDateTime: started,
    response: {
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: 2, mimeType: 'application/json', text: 'e30=', encoding: 'base64' },
    },
  })
}

test('API calls are taken oldest first, other entries counted and left out', () => {
  const har = harOf([
    entry('https://app.example/api/me?x=1', '2026-11-26T10:00:02.000Z'),
    entry('https://app.example/assets/index.js', '2026-11-26T10:00:00.000Z'),
    entry('https://api.example/api/_auth/session', '2026-11-26T10:00:01.000Z'),
    entry('https://app.example/login', '2026-11-26T09:59:59.000Z'),
  ])
  const loaded = parseHar(har, 'x.har')
  expect(loaded.ignored).toBe(2)
  expect(loaded.calls.map((call) => [call.index, call.method, call.path, call.query])).toEqual([
    [2, 'GET', '/api/_auth/session', []],
    [0, 'GET', '/api/me', [['x', '1']]],
  ])
  // Headers by lower-case name; a base64 content decoded to its bytes.
  expect(loaded.calls[0]!.response).toEqual({
    status: 200,
    headers: [['content-type', 'application/json']],
    body: { mimeType: 'application/json', bytes: expect.any(Uint8Array) },
  })
  expect(bytesOf(loaded.calls[0]!)).toEqual(Buffer.from('{}'))
})

function bytesOf(call: RecordedCall): Buffer | undefined {
  const body = call.response.body
  return body && 'bytes' in body ? Buffer.from(body.bytes) : undefined
}

/** A file of one entry at `url` whose answer is `content`. */
function harWith(url: string, content: Record<string, unknown>) {
  const har = harOf([entry(url, '2026-11-26T10:00:00.000Z')])
  har.log.entries[0]!.response.content = content
  return har
}

test('a base64 content is kept as its bytes, byte for byte (an icon, a PNG); a text content as its text', () => {
  const icon = readFileSync(new URL('../../../web/public/favicon.ico', import.meta.url))
  // A PNG's signature and bytes that are no UTF-8, which a decoding to text would have lost.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0xc3, 0x28])
  for (const [bytes, mimeType] of [
    [icon, 'image/x-icon'],
    [png, 'image/png'],
  ] as const) {
    const har = harWith('http://x/api/logo', {
      size: bytes.length,
      mimeType,
      text: bytes.toString('base64'),
      encoding: 'base64',
    })
    const call = parseHar(har, 'x.har').calls[0]!
    expect(call.response.body?.mimeType).toBe(mimeType)
    expect(bytesOf(call)?.equals(bytes)).toBe(true)
  }
  const text = harWith('http://x/api/me', { size: 9, mimeType: 'application/json', text: '{"a":"é"}' })
  expect(parseHar(text, 'x.har').calls[0]!.response.body).toEqual({
    mimeType: 'application/json',
    text: '{"a":"é"}',
  })
  // Padding may be left out; an empty text is no bytes.
  expect(
    bytesOf(
      parseHar(
        harWith('http://x/api/a', { size: 2, mimeType: 'x', text: 'e30', encoding: 'base64' }),
        'x.har',
      ).calls[0]!,
    ),
  ).toEqual(Buffer.from('{}'))
  expect(
    bytesOf(
      parseHar(harWith('http://x/api/a', { size: 0, mimeType: 'x', text: '', encoding: 'base64' }), 'x.har')
        .calls[0]!,
    ),
  ).toEqual(Buffer.alloc(0))
})

test.each([
  ['a character outside the alphabet', 'iVBO!w0K'],
  ['a line break', 'iVBORw0K\nGgo='],
  ['a space', 'iVBO Rw0K'],
  ['the URL-safe alphabet', 'iVBO-w0_'],
  ['a lone last character', 'iVBORw0KG'],
  ['text after the padding', 'e30=e30='],
  ['bits left over in the last character', 'QR=='],
])(
  'a base64 content with %s stops the start with one line naming the entry, quoting nothing of it',
  (_, text) => {
    const har = harWith('http://x/api/logo', { size: 4, mimeType: 'image/png', text, encoding: 'base64' })
    const error = errorOf(() => parseHar(har, 'x.har'))
    expect(error.message).toBe(
      'Failed to start: --replay x.har: log.entries.0.response.content.text is not base64, as its encoding says.',
    )
    expect(error.message).not.toContain(text)
    // An entry that is not replayed (a page's image) is not decoded, so not checked.
    expect(
      parseHar(
        harWith('http://x/logo.png', { size: 4, mimeType: 'image/png', text, encoding: 'base64' }),
        'x.har',
      ),
    ).toEqual({ calls: [], ignored: 1 })
  },
)

test.each(['quoted-printable', 'gzip', 'BASE64'])(
  'a content in the encoding %s stops the start: its bytes cannot be known',
  (encoding) => {
    const har = harWith('http://x/api/logo', { size: 4, mimeType: 'image/png', text: 'e30=', encoding })
    expect(errorOf(() => parseHar(har, 'x.har')).message).toBe(
      'Failed to start: --replay x.har: log.entries.0.response.content.encoding is not base64, the only encoding replayed.',
    )
  },
)

test('a posted form recorded as params is compared as its text', () => {
  const har = harOf([entry('http://x/api/form', '2026-11-26T10:00:00.000Z')])
  const withParams = structuredClone(har)
  ;(withParams.log.entries[0]!.request as Record<string, unknown>).postData = {
    mimeType: 'application/x-www-form-urlencoded',
    params: [
      { name: 'a', value: '1' },
      { name: 'b', value: 'x y' },
    ],
  }
  expect(parseHar(withParams, 'x.har').calls[0]!.body).toEqual({
    mimeType: 'application/x-www-form-urlencoded',
    text: 'a=1&b=x+y',
  })
})

test.each([
  ['missing.har', null, /^Failed to start: --replay .*missing\.har: there is no such file\.$/],
  ['folder.har', 'a folder', /^Failed to start: --replay .*folder\.har: it cannot be read \(EISDIR\)\.$/],
  [
    'broken.har',
    '{"log": {"password": "hunter2"',
    /^Failed to start: --replay .*broken\.har: it is not JSON/,
  ],
  ['nolog.har', '{"entries": []}', /it is not a HAR 1\.2 file: it has no log\.$/],
  [
    'old.har',
    '{"log": {"version": "1.1", "entries": []}}',
    /it is not a HAR 1\.2 file: log\.version is "1\.1", not "1\.2"\.$/,
  ],
  [
    'bad-entry.har',
    '{"log": {"version": "1.2", "entries": [{"startedDateTime": "x", "request": {"method": "GET"}}]}}',
    /it is not a HAR 1\.2 file: log\.entries\.0\.request\.url: /,
  ],
])('%s stops the start with one line saying why', (name, content, message) => {
  const file = join(dir, name)
  if (content === 'a folder') mkdirSync(file)
  else if (content !== null) writeFileSync(file, content)
  const error = errorOf(() => readHarFile(file))
  expect(error.message).toMatch(message)
  expect(error.message).not.toContain('\n')
  expect(error.message).not.toContain('hunter2')
})

function errorOf(run: () => unknown): Error {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  throw new Error('Failed to see an error: the call returned.')
}

test('a recorded response header Node would refuse to send (a line break, a NUL, U+2028) is dropped at load', () => {
  const har = harOf([entry('http://x/api/me', '2026-11-26T10:00:00.000Z')])
  har.log.entries[0]!.response.headers = [
    { name: 'Location', value: '/a\r\nX-Injected: 1' },
    { name: 'Retry-After', value: '1\nX: 2' },
    { name: 'Location', value: '/a\u2028b' },
    { name: 'Content-Type', value: 'text/html\u0000' },
    { name: 'Bad Name', value: 'x' },
    { name: 'Cache-Control', value: 'no-cache' },
  ]
  expect(parseHar(har, 'x.har').calls[0]!.response.headers).toEqual([['cache-control', 'no-cache']])
})

test.each([999, 101, 100, 199, 600, -2])(
  'a replayed entry with status %i stops the start with one line; -1, 0 and 200 to 599 load',
  (status) => {
    const har = harOf([
      entry('http://x/page', '2026-11-26T10:00:00.000Z'),
      entry('http://x/api/me', '2026-11-26T10:00:01.000Z'),
    ])
    // A page's entry is not replayed: its status is not checked.
    har.log.entries[0]!.response.status = status
    expect(parseHar(har, 'x.har').ignored).toBe(1)
    for (const fine of [-1, 0, 200, 304, 599]) {
      har.log.entries[1]!.response.status = fine
      expect(parseHar(har, 'x.har').calls).toHaveLength(1)
    }
    har.log.entries[1]!.response.status = status
    const error = errorOf(() => parseHar(har, 'x.har'))
    expect(error.message).toBe(
      `Failed to start: --replay x.har: log.entries.1.response.status is ${status}: a replay answers 200 to 599, or -1 or 0 for a request that got no answer.`,
    )
  },
)
