// `npm run scenario -- ... | head -4`: a closed stdout ends the command quietly with 0.
import { spawn } from 'node:child_process'
import { expect, test } from 'vitest'

test('a stdout closed before the command writes ends it with 0 and nothing on stderr', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'qa-cli/scenario.ts', '--help'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Closed at once, long before tsx has loaded the command: its first write meets a closed pipe.
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(stderr).toBe('')
  expect(code).toBe(0)
}, 60_000)
