// The relying party's in-process fetch hands the dispatcher's answer back as a fetch Response: text as text, bytes
// as the same bytes (RawResponse.body may be either; docs/decisions/017-har-record-and-replay.md).
import { expect, test } from 'vitest'
import type { RawRequest, RawResponse } from '../pipeline/raw.ts'
import { createInProcessFetch } from './in-process-fetch.ts'

const GET = { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as const

function fetchAnswering(answer: RawResponse) {
  const seen: RawRequest[] = []
  const fetch = createInProcessFetch(() => async (request) => {
    seen.push(request)
    return answer
  })
  return { fetch, seen }
}

test('bytes come back byte for byte, text as text, with the status and headers', async () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xc3, 0x28])
  const binary = fetchAnswering({ status: 200, headers: { 'content-type': 'image/png' }, body: bytes })
  const answer = await binary.fetch('http://127.0.0.1:4010/idp/logo', GET)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toBe('image/png')
  expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true)
  expect(binary.seen[0]).toMatchObject({ method: 'GET', url: '/idp/logo', origin: 'http://127.0.0.1:4010' })

  const text = fetchAnswering({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"a":"é"}',
  })
  const json = await text.fetch('http://127.0.0.1:4010/idp/jwks', GET)
  expect(await json.json()).toEqual({ a: 'é' })
})
