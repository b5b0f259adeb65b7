// HAR record and replay (README: Record and replay; docs/decisions/017-har-record-and-replay.md). Chromium itself records
// a sign-in against the suite's mock server (Playwright's recordHar); a second mock server started with --replay on
// that file, which has no account at all, takes the same sign-in to home with the recorded answers; a call that was
// not recorded gets 501 replay_no_match. And the journal's own HAR of that sign-in holds none of its secrets.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createMockClient } from '../contracts/support/mock-client.ts'
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
  await recording.close() // writes the file
  const recorded = readFileSync(harFile, 'utf8')
  expect(JSON.parse(recorded)).toMatchObject({ log: { version: '1.2' } })
  // A browser's HAR holds the answers' secrets in clear, so the search below for them in the journal's HAR can find
  // them. (Chromium leaves the app's request bodies out, the password with them: the journal keeps them, redacted.)
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
