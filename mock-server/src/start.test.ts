// `npm run mock` runs the compiled server (mock-server/start.mjs): built when missing, rebuilt when any file it was
// built from changed, so what answers is always the current source; the seeded accounts sign in with the hashes made
// at build time.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const start = join(root, 'mock-server/start.mjs')
// Inside the repository, so the compiled file finds the native argon2 binding in node_modules.
mkdirSync(join(root, 'dist'), { recursive: true })
const buildDir = mkdtempSync(join(root, 'dist/start-test-'))
afterAll(() => rmSync(buildDir, { recursive: true, force: true }))

function run(
  args: string[],
): Promise<{ origin: string; output: () => string; stop: () => Promise<number | null> }> {
  const { MOCK_CONTROL_TOKEN: _token, ...env } = process.env
  const child = spawn(process.execPath, [start, '--port', '0', '--web', 'none', ...args], {
    env: { ...env, PORT: '0', MOCK_SERVER_BUILD_DIR: buildDir },
  })
  let output = ''
  const code = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /listening on (http:\/\/\S+)/.exec(output)
      if (listening)
        resolve({
          origin: listening[1]!,
          output: () => output,
          stop: () => (child.kill('SIGTERM'), code),
        })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    void code.then(() => reject(new Error(`The server stopped before listening: ${output}`)))
  })
}

const stampFile = () => join(buildDir, 'inputs.json')

test('the first start builds the server, which serves the API and signs a seeded account in', async () => {
  const server = await run([])
  expect(server.output()).toContain('Building the mock server (no build yet)')
  expect(await (await fetch(`${server.origin}/api/_auth/session`)).json()).toEqual({})
  const login = await fetch(`${server.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', password: 'analytical-engine-1843' }),
  })
  expect(login.status).toBe(200)
  expect(await server.stop()).toBe(0)
  const inputs = Object.keys((JSON.parse(readFileSync(stampFile(), 'utf8')) as { inputs: object }).inputs)
  expect(inputs).toEqual(
    expect.arrayContaining(['api/openapi.yaml', 'api/control.openapi.yaml', 'mock-server/src/main.ts']),
  )
}, 120_000)

test('a current build starts as it is; a build older than one of its sources is rebuilt, never run', async () => {
  const fresh = await run([])
  expect(fresh.output()).not.toContain('Building')
  expect(await fresh.stop()).toBe(0)
  // A build that would say so if it ran, stamped as made from an older dispatch.ts.
  writeFileSync(join(buildDir, 'main.js'), "console.log('the stale build ran'); process.exit(3)\n")
  const stamp = JSON.parse(readFileSync(stampFile(), 'utf8')) as { inputs: Record<string, unknown> }
  stamp.inputs['mock-server/src/pipeline/dispatch.ts'] = [0, 1]
  writeFileSync(stampFile(), JSON.stringify(stamp))
  const rebuilt = await run([])
  expect(rebuilt.output()).toContain(
    'Building the mock server (mock-server/src/pipeline/dispatch.ts changed)',
  )
  expect(rebuilt.output()).not.toContain('the stale build ran')
  expect((await fetch(`${rebuilt.origin}/api/_auth/session`)).status).toBe(200)
  expect(await rebuilt.stop()).toBe(0)
}, 180_000)
