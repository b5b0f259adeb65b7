import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { formatMatchedSettings, formatNotCheckable } from '#contracts/coverage/target-checks.ts'
import { probeTarget, readProxied, readTargetUrl } from '#contracts/support/target.ts'
import { UNREACHABLE_ORIGIN } from '../../mock-server/testing/unreachable.ts'

test('CONTRACT_TARGET: unset or blank is the in-process run; an origin loses its trailing slash; a path, a query or credentials are refused', () => {
  expect(readTargetUrl({})).toBeNull()
  expect(readTargetUrl({ CONTRACT_TARGET: '  ' })).toBeNull()
  expect(readTargetUrl({ CONTRACT_TARGET: 'http://127.0.0.1:4010/' })).toBe('http://127.0.0.1:4010')
  expect(() => readTargetUrl({ CONTRACT_TARGET: 'http://127.0.0.1:4010/api' })).toThrow(
    /the server's origin \(scheme, host, port\).*adds \/api\/\.\.\. itself/,
  )
  expect(() => readTargetUrl({ CONTRACT_TARGET: 'http://qa:secret@127.0.0.1:4010' })).toThrow(/no user/)
  expect(() => readTargetUrl({ CONTRACT_TARGET: 'staging.example' })).toThrow(/not a URL/)
  expect(() => readTargetUrl({ CONTRACT_TARGET: 'ftp://staging.example' })).toThrow(/http or https/)
  expect(() => readTargetUrl({ CONTRACT_TARGET: 'http://a.example/?x=1' })).toThrow(/no query/)
})

test('CONTRACT_TARGET_PROXIED: 1 says a proxy stands in front, unset, blank or 0 that none does; anything else is refused', () => {
  expect(readProxied('1')).toBe(true)
  for (const none of [undefined, '', '0']) expect(readProxied(none)).toBe(false)
  expect(() => readProxied('yes')).toThrow('CONTRACT_TARGET_PROXIED is 1 or 0, not "yes".')
})

/**
 * A server whose GET /__mock/clock answers `status`, recording the control token it was sent; with `asksFor`, a call
 * without that token gets 401.
 */
async function startControlStub(status: number, asksFor?: string, config?: object) {
  const tokens: (string | undefined)[] = []
  const server = createServer((req, res) => {
    if (req.url === '/config.json' && config) return res.writeHead(200).end(JSON.stringify(config))
    const token = req.headers['x-mock-control-token'] as string | undefined
    if (req.url === '/__mock/clock') tokens.push(token)
    const answer = req.url !== '/__mock/clock' ? 404 : asksFor && token !== asksFor ? 401 : status
    res.writeHead(answer, { 'content-type': 'application/json' }).end('{}')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { baseUrl, tokens, close: () => new Promise((resolve) => server.close(resolve)) }
}

test.each([
  [200, null, false],
  [404, /does not offer \(GET \/__mock\/clock: 404\)/, true],
  [403, /does not offer \(GET \/__mock\/clock: 403\)/, false],
] as const)('the probe: /__mock/clock answering %i', async (status, noControl, production) => {
  const stub = await startControlStub(status)
  try {
    const target = await probeTarget(stub.baseUrl, 'the-token')
    expect(target.production).toBe(production)
    if (noControl === null) expect(target.noControl).toBeNull()
    else expect(target.noControl).toMatch(noControl)
    // A token that was taken: the same call without it, to learn whether the target asks for one (this one does not).
    expect(stub.tokens).toEqual(status === 200 ? ['the-token', undefined] : ['the-token'])
    expect(target.headers).toEqual({ 'X-Mock-Control-Token': 'the-token' })
    expect(target.controlToken).toBeNull()
  } finally {
    await stub.close()
  }
})

test('the probe: a 404 on /__mock from a server whose config.json says mock mode is a hidden /__mock, not production', async () => {
  const hidden = await startControlStub(404, undefined, { mock: true })
  const production = await startControlStub(404, undefined, { mock: false })
  try {
    const target = await probeTarget(hidden.baseUrl, undefined)
    expect(target.production).toBe(false)
    expect(target.noControl).toMatch(/which is hidden/)
    expect((await probeTarget(production.baseUrl, undefined)).production).toBe(true)
  } finally {
    await Promise.all([hidden.close(), production.close()])
  }
})

test('the probe: a target that refuses /__mock without the token it was given stands for a server built with it', async () => {
  const stub = await startControlStub(200, 'the-token')
  try {
    const target = await probeTarget(stub.baseUrl, 'the-token')
    expect(target.noControl).toBeNull()
    expect(target.controlToken).toBe('the-token')
    expect(stub.tokens).toEqual(['the-token', undefined])
    const untold = await probeTarget(stub.baseUrl, undefined)
    expect(untold.noControl).toMatch(/asks for a control token/)
    expect(untold.controlToken).toBeNull()
  } finally {
    await stub.close()
  }
})

test('the probe: a token the target refuses fails the run rather than shrinking it to the checks that need no control', async () => {
  const stub = await startControlStub(200, 'the-token')
  try {
    await expect(probeTarget(stub.baseUrl, 'a-typo')).rejects.toThrow(
      `Failed to use the contract target ${stub.baseUrl}: its /__mock refused CONTRACT_CONTROL_TOKEN (GET /__mock/clock: 401).`,
    )
  } finally {
    await stub.close()
  }
})

test('the probe: an unreachable target is an error naming it, not a run of skipped checks', async () => {
  await expect(probeTarget(UNREACHABLE_ORIGIN, undefined)).rejects.toThrow(
    `Failed to reach the contract target ${UNREACHABLE_ORIGIN}`,
  )
})

test('the report counts the not-checkable checks by reason, most frequent first', () => {
  const text = formatNotCheckable('http://127.0.0.1:4010', 12, [
    { file: 'a', name: 'one', reason: 'needs a server built with refreshGraceMs' },
    { file: 'a', name: 'two', reason: 'needs the in-process app (read .core)' },
    { file: 'b', name: 'three', reason: 'needs the in-process app (read .core)' },
  ])
  expect(text.split('\n')).toEqual([
    'Against http://127.0.0.1:4010: 12 checks ran; 3 are not checkable against this target:',
    '     2  needs the in-process app (read .core)',
    '     1  needs a server built with refreshGraceMs',
  ])
})

test("the report counts a setting that differs from the target's by reason, and the checks that ran on equal settings by setting", () => {
  const differs =
    "needs a server built with refreshGraceMs 60000 where the target's is 10000 (GET /__mock/settings)"
  const text = formatNotCheckable('http://127.0.0.1:4010', 3, [
    { file: 'a', name: 'one', reason: differs },
    { file: 'b', name: 'two', reason: differs },
    { file: 'b', name: 'three', reason: 'needs a server built with dataFile' },
  ])
  expect(text.split('\n')).toEqual([
    'Against http://127.0.0.1:4010: 3 checks ran; 3 are not checkable against this target:',
    `     2  ${differs}`,
    '     1  needs a server built with dataFile',
  ])
  expect(formatMatchedSettings('http://127.0.0.1:4010', [])).toBe('')
  const matched = formatMatchedSettings('http://127.0.0.1:4010', [
    { file: 'a', name: 'one', settings: ['refreshGraceMs 10000'] },
    { file: 'b', name: 'two', settings: ['refreshGraceMs 10000', 'maxDecoys 10000'] },
  ])
  expect(matched.split('\n')).toEqual([
    'Against http://127.0.0.1:4010: 2 of the checks that ran asked for settings the target has:',
    '     2  refreshGraceMs 10000',
    '     1  maxDecoys 10000',
  ])
})
