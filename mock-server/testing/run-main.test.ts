// runMain's children end with the test running when they started, so no server outlives the run of its tests.
import { expect, test } from 'vitest'
import { runMain } from './run-main.ts'

const LISTENING = /listening on (http:\/\/\S+)/
let origin = ''

test('a server its test never stops answers while the test runs', async () => {
  const server = await runMain(['--port', '0', '--web', 'none', '--quiet'], LISTENING)
  origin = LISTENING.exec(server.output)![1]!
  expect((await fetch(`${origin}/api/_auth/session`)).status).toBe(200)
})

test('and is gone once that test has ended', async () => {
  expect(origin).not.toBe('')
  // A killed process's socket closes at once; the margin is for a loaded machine.
  await expect
    .poll(
      () =>
        fetch(`${origin}/api/_auth/session`).then(
          () => 'answering',
          () => 'gone',
        ),
      { timeout: 10_000 },
    )
    .toBe('gone')
})
