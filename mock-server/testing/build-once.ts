// vitest globalSetup of the unit-node project: builds the compiled mock server (scripts/build-server.ts) once, when
// missing or stale, so no two test files build it at once (run-main.ts starts it).
import { execFileSync } from 'node:child_process'
import { START_SCRIPT } from './run-main.ts'

export default function setup(): void {
  try {
    execFileSync(process.execPath, [START_SCRIPT, '--help'], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`Failed to build the mock server for the tests: ${stderr}`, { cause: error })
  }
}
