// HAR record and replay (docs/decisions/017-har-record-and-replay.md). Chromium records a sign-in; a mock server
// with no accounts replays it from that file. Secrets stay out of the journal's HAR.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createMockClient } from '../api/mock-client.ts'
import { expect, readTokens, signInThroughForm, test } from './fixtures.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

interface ReplayServer {
  origin: string
  stop(): Promise<void>
}

/** `npm run mock -- --replay <file>` as a child process on a free port, serving this run's build of the app. */
function startReplay(harFile: string): Promise<ReplayServer> {
  const web = process.env.E2E_WEB_DIR
  if (!web)
    throw new Error(
      'Failed to find the app build: E2E_WEB_DIR is not set (e2e/playwright.config.ts sets it).',
    )
  const child = spawn(
    process.execPath,
    [
      'mock-server/start.mjs',
      '--replay',
      harFile,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--web',
      web,
      '--quiet',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /listening on (http:\/\/\S+)/.exec(output)
      if (listening)
        resolve({
          origin: listening[1]!,
          stop: async () => {
            child.kill('SIGTERM')
            await exited
          },
        })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    void exited.then(() => reject(new Error(`The replay server stopped before listening: ${output}`)))
  })
}

/** The app's own icon: an ICO holding a PNG, bytes that are no UTF-8 text. */
const FAVICON = readFileSync(new URL('../web/public/favicon.ico', import.meta.url))
/** Not `.../favicon.ico`: Playwright hides requests whose URL ends so from its events, and so from its HAR. */
const ICON_PATH = '/api/brand/icon.ico'

/**
 * A backend on another origin whose API answers an image, since the product API answers only JSON.
 */
async function startIconBackend(): Promise<ReplayServer> {
  const server = createServer((request, response) => {
    if (request.url !== ICON_PATH) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'image/x-icon', 'cache-control': 'no-store' }).end(FAVICON)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.close()
      server.closeAllConnections()
      await once(server, 'close')
    },
  }
}

test('a sign-in recorded by Chromium replays to home against a server that has only the recording', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  account,
  mock,
}, testInfo) => {
  // Record: Chromium writes every request of the context, bodies embedded.
  const harFile = testInfo.outputPath('sign-in.har')
  const recording = await browser.newContext({
    baseURL,
    extraHTTPHeaders,
    recordHar: { path: harFile, content: 'embed' },
  })
  const recordedPage = await recording.newPage()
  await signInThroughForm(recordedPage, account)
  const tokens = await readTokens(recordedPage)
  const sessionCookie = (await recording.cookies()).find((cookie) => cookie.name === 'sid')?.value
  // The image opens in a page of its own, since the app's CSP forbids other origins.
  const backend = await startIconBackend()
  try {
    const iconPage = await recording.newPage()
    const icon = await iconPage.goto(`${backend.origin}${ICON_PATH}`)
    expect((await icon!.body()).equals(FAVICON)).toBe(true)
  } finally {
    await recording.close() // writes the file
    await backend.stop()
  }
  const recorded = readFileSync(harFile, 'utf8')
  const recordedHar = JSON.parse(recorded) as {
    log: {
      version: string
      entries: { request: { url: string }; response: { content: Record<string, unknown> } }[]
    }
  }
  expect(recordedHar).toMatchObject({ log: { version: '1.2' } })
  // The recording holds the icon in base64, as a browser's HAR holds any answer that is not text.
  const recordedIcon = recordedHar.log.entries.find((entry) => entry.request.url.endsWith(ICON_PATH))
  expect(recordedIcon?.response.content).toMatchObject({ mimeType: 'image/x-icon', encoding: 'base64' })
  expect(Buffer.from(recordedIcon!.response.content.text as string, 'base64').equals(FAVICON)).toBe(true)
  // A browser's HAR holds the secrets in clear, so we know what to search the journal's HAR for.
  const secrets = {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    serviceToken: tokens.serviceToken,
    sessionCookie,
  }
  for (const [name, secret] of Object.entries(secrets)) {
    expect(secret, name).toEqual(expect.any(String))
    expect(recorded.includes(secret!), `${name} is in Chromium's HAR`).toBe(true)
  }

  // The journal's HAR of this account's calls (its sign-up with the code, and this sign-in) holds none of them.
  const signupCode = await mock.latestCode(account.email, 'signup')
  const exported = await mock.har({ email: account.email })
  const login = exported.log.entries.find((entry) => entry._operation === 'login')
  expect(JSON.parse(login!.request.postData!.text!)).toEqual({ email: account.email, password: '[redacted]' })
  expect(exported.log.entries.map((entry) => entry._operation)).toContain('verifyOtp')
  const exportedText = JSON.stringify(exported)
  for (const [name, secret] of Object.entries({ ...secrets, password: account.password, signupCode })) {
    expect(exportedText.includes(secret!), `${name} is in the journal's HAR`).toBe(false)
  }

  // Replay: a server with no account answers the same sign-in from the file alone.
  const replay = await startReplay(harFile)
  try {
    const context = await browser.newContext({ baseURL: replay.origin })
    const problems: string[] = []
    context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`))
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
    })
    const page = await context.newPage()
    await signInThroughForm(page, account)
    await expect(page.getByRole('region', { name: 'Your account' }).getByText(account.email)).toBeVisible()
    // The tokens are the recorded ones: the replay answered, not a backend.
    expect(await readTokens(page)).toEqual(tokens)
    // Every call the app made had a recorded answer.
    expect(problems).toEqual([])
    const replayControl = createMockClient({
      baseUrl: replay.origin,
      ...(process.env.MOCK_CONTROL_TOKEN && { controlToken: process.env.MOCK_CONTROL_TOKEN }),
    })
    const calls = await replayControl.journal()
    expect(calls.map((call) => call.operation)).toContain('login')
    expect(calls.filter((call) => call.replay?.matched !== true)).toEqual([])

    // The recorded icon, replayed at the replay's origin: the file's bytes, byte for byte, with the recorded type.
    const icon = await page.goto(ICON_PATH)
    expect(icon!.status()).toBe(200)
    expect(icon!.headers()['content-type']).toBe('image/x-icon')
    expect(Number(icon!.headers()['content-length'])).toBe(FAVICON.length)
    expect((await icon!.body()).equals(FAVICON)).toBe(true)
    expect((await replayControl.journal()).at(-1)).toMatchObject({
      path: ICON_PATH,
      status: 200,
      replay: { matched: true },
    })

    // A call that was not recorded: the documented no-match answer, naming it.
    const missing = await context.request.get('/api/help?q=never-recorded')
    expect(missing.status()).toBe(501)
    expect(await missing.json()).toEqual({
      error: 'replay_no_match',
      message:
        'No recorded answer for GET /api/help?q=never-recorded: nothing was recorded for GET /api/help.',
    })
    expect((await replayControl.journal()).at(-1)).toMatchObject({
      path: '/api/help',
      status: 501,
      replay: { matched: false },
    })
    await context.close()
  } finally {
    await replay.stop()
  }
})
