// The command a newcomer runs: `npm run mock` prints its help, starts on the given port and serves the API.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, vi } from 'vitest'
import { harEntry, harOf } from '../testing/har-entry.ts'
import { runMain } from '../testing/run-main.ts'

test('--help lists the flags', async () => {
  const { output, code } = await runMain(['--help'], /--production/)
  expect(output).toContain('--data <dir>')
  expect(await code).toBe(0)
}, 30_000)

test('starts on a free port, serves the session call, and logs the request', async () => {
  const server = await runMain(['--port', '0'], /listening on (http:\/\/\S+)/)
  const origin = /listening on (http:\/\/\S+)/.exec(server.output)![1]!
  const res = await fetch(`${origin}/api/_auth/session`)
  expect(await res.json()).toEqual({})
  server.stop()
  expect(await server.code).toBe(0)
}, 30_000)

test('a port already in use stops the start with one line (exit 2), not a stack trace', async () => {
  const first = await runMain(['--port', '0', '--web', 'none'], /listening on (http:\/\/\S+)/)
  const port = new URL(/listening on (http:\/\/\S+)/.exec(first.output)![1]!).port
  const second = await runMain(['--port', port, '--web', 'none'], /Failed to start|listening on/)
  expect(await second.code).toBe(2)
  expect(second.read().trim()).toBe(
    `Failed to start: port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another port (PORT or --port).`,
  )
  first.stop()
  expect(await first.code).toBe(0)
}, 30_000)

test('an unknown flag stops with an error', async () => {
  const { output, code } = await runMain(['--colour'], /Unknown option/)
  expect(output).toContain("'--colour'")
  expect(await code).toBe(2)
}, 30_000)

/** Each start is refused: exit 2, and one line that matches its message. */
async function expectRefused(refusals: [string[], Record<string, string>, RegExp][]): Promise<void> {
  for (const [args, env, message] of refusals) {
    const refused = await runMain(
      ['--port', '0', '--web', 'none', ...args],
      /Failed to start|listening on/,
      env,
    )
    expect(refused.output).toMatch(message)
    expect(await refused.code).toBe(2)
  }
}

/** A GET with headers fetch may not set (Host), answered with its status and JSON body. */
function get(origin: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: { error?: string } }>((resolve, reject) => {
    const req = request(new URL(path, origin), { headers }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }))
    })
    req.on('error', reject)
    req.end()
  })
}

test('--help says --trust-proxy takes a number of hops, and a word in its place stops with an error', async () => {
  const help = await runMain(['--help'], /--production/)
  expect(help.output).toContain('--trust-proxy <hops>')
  expect(help.output).toContain('--allow-host <name>')
  expect(help.output).toContain('--control-token <t>')
  for (const value of ['true', 'all', '-1']) {
    const refused = await runMain([`--trust-proxy=${value}`], /Failed to start|argument missing/)
    expect(refused.output).toMatch(/--trust-proxy/)
    expect(await refused.code).toBe(2)
  }
}, 60_000)

test('--control-token (or MOCK_CONTROL_TOKEN) and --allow-host reach the control surface', async () => {
  for (const [args, env] of [
    [['--control-token', 'flag-token-of-the-team'], {}],
    [[], { MOCK_CONTROL_TOKEN: 'flag-token-of-the-team' }],
  ] as const) {
    const server = await runMain(
      ['--port', '0', '--web', 'none', '--allow-host', 'qa.internal', ...args],
      /listening on (http:\/\/\S+)/,
      env,
    )
    const origin = /listening on (http:\/\/\S+)/.exec(server.output)![1]!
    expect((await get(origin, '/__mock/clock')).body.error).toBe('control_token_required')
    const token = { 'x-mock-control-token': 'flag-token-of-the-team' }
    expect((await get(origin, '/__mock/clock', token)).status).toBe(200)
    expect((await get(origin, '/__mock/clock', { ...token, host: 'qa.internal:80' })).status).toBe(200)
    expect((await get(origin, '/__mock/clock', { ...token, host: 'rebind.evil.example' })).status).toBe(403)
    server.stop()
    expect(await server.code).toBe(0)
  }
}, 60_000)

test('--production: /idp is 404 and external sign-in says it is not available', async () => {
  const server = await runMain(
    ['--port', '0', '--web', 'none', '--production'],
    /listening on (http:\/\/\S+)/,
  )
  const origin = /listening on (http:\/\/\S+)/.exec(server.output)![1]!
  expect((await get(origin, '/idp/.well-known/openid-configuration')).status).toBe(404)
  const external = await get(origin, '/api/auth/external/authorize?state=abcdefghijklmnop')
  expect([external.status, external.body.error]).toEqual([404, 'external_sign_in_unavailable'])
  server.stop()
  expect(await server.code).toBe(0)
}, 60_000)

test('--production with --oidc-issuer and --oidc-client-id: external sign-in goes to that provider, and the secret from OIDC_CLIENT_SECRET is never printed', async () => {
  const provider = await runMain(['--port', '0', '--web', 'none', '--quiet'], /listening on (http:\/\/\S+)/)
  const issuer = `${/listening on (http:\/\/\S+)/.exec(provider.output)![1]!}/idp`
  const secret = 'a-client-secret-from-the-environment'
  const product = await runMain(
    [
      '--port',
      '0',
      '--web',
      'none',
      '--production',
      '--oidc-issuer',
      issuer,
      '--oidc-client-id',
      'auth-shell',
    ],
    /listening on (http:\/\/\S+)/,
    { OIDC_CLIENT_SECRET: secret },
  )
  const origin = /listening on (http:\/\/\S+)/.exec(product.output)![1]!
  const start = await fetch(`${origin}/api/auth/external/authorize?state=abcdefghijklmnop`, {
    redirect: 'manual',
  })
  expect(start.status).toBe(302)
  expect(start.headers.get('location')!.startsWith(`${issuer}/authorize?`)).toBe(true)
  expect(product.read()).toContain(`External sign-in through ${issuer} as client auth-shell.`)
  expect(product.read()).not.toContain(secret)
  for (const server of [product, provider]) {
    server.stop()
    expect(await server.code).toBe(0)
  }
}, 60_000)

test('--public-origin and the --oidc-* flags are checked at start (exit 2)', async () => {
  const refusals: [string[], Record<string, string>, RegExp][] = [
    [['--public-origin', 'qa.example'], {}, /--public-origin takes an origin/],
    [['--public-origin', 'https://qa.example/app'], {}, /--public-origin takes an origin/],
    [['--oidc-issuer', 'https://id.example'], {}, /go together/],
    [['--oidc-issuer', 'http://id.example', '--oidc-client-id', 'x'], {}, /must be https/],
    [
      ['--oidc-issuer', 'https://id.example', '--oidc-client-id', 'x'],
      { OIDC_CLIENT_SECRET: '' },
      /is empty/,
    ],
  ]
  await expectRefused(refusals)
}, 60_000)

/** vi.waitFor's 1 s default is a guess about the machine; a child process on a loaded one may need longer. */
const SLOW_MACHINE = { timeout: 15_000, interval: 50 }

test('an empty or non-printable control token and an --allow-host that is no host name stop the start (exit 2)', async () => {
  const help = await runMain(['--help'], /--production/)
  expect(help.output).toContain('MOCK_CONTROL_TOKEN')
  const refusals: [string[], Record<string, string>, RegExp][] = [
    [['--control-token='], {}, /--control-token is empty/],
    [[], { MOCK_CONTROL_TOKEN: '' }, /MOCK_CONTROL_TOKEN is empty/],
    [['--control-token', 'tab\there'], {}, /--control-token may hold only printable ASCII/],
    [[], { MOCK_CONTROL_TOKEN: 'caf\u00e9' }, /MOCK_CONTROL_TOKEN may hold only printable ASCII/],
    [[], { MOCK_CONTROL_TOKEN: 'qa-token' }, /MOCK_CONTROL_TOKEN has 8 characters; give at least 16/],
    [['--control-token', 'a'], {}, /--control-token has 1 character; give at least 16/],
    [['--allow-host', 'http://qa.internal'], {}, /--allow-host takes a host name/],
    [['--allow-host', 'qa.internal:8080'], {}, /--allow-host takes a host name/],
    [['--allow-host', '*.example'], {}, /--allow-host takes a host name/],
    [['--allow-host='], {}, /--allow-host takes a host name/],
  ]
  await expectRefused(refusals)
  const accepted = await runMain(
    [
      '--port',
      '0',
      '--web',
      'none',
      '--allow-host',
      'qa.internal',
      '--allow-host',
      '[::1]',
      '--allow-host',
      '10.0.0.7',
    ],
    /listening on|Failed to start/,
  )
  expect(accepted.output).toMatch(/listening on/)
  accepted.stop()
  expect(await accepted.code).toBe(0)
}, 120_000)

test('--replay serves a HAR file, and stops the start (exit 2, one line) on a file it cannot replay or a flag it does not take', async () => {
  const help = await runMain(['--help'], /--production/)
  expect(help.output).toContain('--replay <file.har>')
  const dir = mkdtempSync(join(tmpdir(), 'replay-main-'))
  try {
    const har = join(dir, 'session.har')
    const entry = harEntry('https://backend.example/api/_auth/session', {
      response: {
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: 21, mimeType: 'application/json', text: '{"recorded":"answer"}' },
      },
    })
    writeFileSync(har, JSON.stringify(harOf([entry], { name: 't', version: '1' })))
    writeFileSync(join(dir, 'old.har'), JSON.stringify({ log: { version: '1.1', entries: [] } }))
    // An answer whose text its encoding calls base64, and is not.
    const content = { size: 4, mimeType: 'image/png', text: 'iVBO!w0K', encoding: 'base64' }
    const garbled = { ...entry, response: { ...entry.response, content } }
    writeFileSync(join(dir, 'garbled.har'), JSON.stringify(harOf([garbled], { name: 't', version: '1' })))
    const refusals: [string[], RegExp][] = [
      [['--replay', join(dir, 'missing.har')], /--replay .*missing\.har: there is no such file\./],
      [['--replay', join(dir, 'old.har')], /it is not a HAR 1\.2 file: log\.version is "1\.1"/],
      [
        ['--replay', join(dir, 'garbled.har')],
        /log\.entries\.0\.response\.content\.text is not base64, as its encoding says\./,
      ],
      [['--replay', har, '--production'], /--production has no place beside it/],
      [['--replay', har, '--data', join(dir, 'state.json')], /--data has no place beside it/],
    ]
    for (const [args, message] of refusals) {
      const refused = await runMain(['--port', '0', '--web', 'none', ...args], /Failed to start|listening on/)
      expect(refused.output).toMatch(message)
      expect(refused.output.trim().split('\n')).toHaveLength(1)
      expect(await refused.code).toBe(2)
    }
    const server = await runMain(
      ['--port', '0', '--web', 'none', '--replay', har, '--host', '0.0.0.0'],
      /State in/,
    )
    expect(server.output).toContain('replaying 1 recorded API calls')
    // A replay serves /__mock too (its journal, its reset): on every interface without a token, it says so.
    expect(server.output).toContain('Listening on every interface without a control token')
    expect(server.output).toContain('State in memory: the recorded calls, and the journal of this run.')
    const origin = /listening on (http:\/\/\S+)/.exec(server.output)![1]!
    expect(await (await fetch(`${origin}/api/_auth/session`)).json()).toEqual({ recorded: 'answer' })
    const missing = await fetch(`${origin}/api/me`)
    expect([missing.status, ((await missing.json()) as { error: string }).error]).toEqual([
      501,
      'replay_no_match',
    ])
    await vi.waitFor(
      () => expect(server.read()).toMatch(/GET \/api\/me 501 \(no recorded answer\)/),
      SLOW_MACHINE,
    )
    server.stop()
    expect(await server.code).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)

test('blank PORT, HOST and DATABASE_URL are unset, as an env file leaves them; the start names the store', async () => {
  const server = await runMain(['--web', 'none'], /State in/, {
    PORT: '0',
    HOST: ' ',
    DATABASE_URL: '',
  })
  expect(server.output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/)
  expect(server.output).toContain(
    'State in memory (DATABASE_URL is blank, so unset): a restart starts it again.',
  )
  server.stop()
  expect(await server.code).toBe(0)
  await expectRefused([
    [['--port', ''], {}, /^Failed to start: --port is empty; give a port, or leave it out\.$/m],
    [
      ['--host', ''],
      {},
      /^Failed to start: --host is empty; give an address, or leave it out \(127\.0\.0\.1\)\.$/m,
    ],
  ])
}, 60_000)

test('bound to every interface without a control token, the start says who can drive /__mock', async () => {
  for (const host of ['::', '::ffff:0.0.0.0']) {
    const server = await runMain(['--port', '0', '--web', 'none', '--host', host], /State in/)
    expect(server.output).toMatch(/listening on http:\/\/\[::(ffff:0\.0\.0\.0)?\]:\d+/)
    expect(server.output).toContain('Listening on every interface without a control token')
    server.stop()
    expect(await server.code).toBe(0)
  }
  const guarded = await runMain(['--port', '0', '--web', 'none', '--host', '::'], /State in/, {
    MOCK_CONTROL_TOKEN: 'a-token-of-the-team',
  })
  expect(guarded.output).not.toContain('every interface')
  guarded.stop()
  expect(await guarded.code).toBe(0)
}, 60_000)
