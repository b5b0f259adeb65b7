// Every web test's setup: an unexpected console.error fails the test. It is a defect, not noise.
import { afterEach, beforeEach } from 'vitest'
import { consoleErrors } from './console-errors.ts'

const original = console.error

beforeEach(() => {
  consoleErrors.reset()
  console.error = (...args: unknown[]) => consoleErrors.record(args)
})

// Registered before setup.ts's cleanup, so it runs after it, and an error logged at unmount still counts.
afterEach(() => {
  console.error = original
  const unexpected = consoleErrors.takeUnexpected()
  if (unexpected.length > 0) {
    throw new Error(
      `Unexpected console.error:\n${unexpected.map((args) => args.map(String).join(' ')).join('\n')}`,
    )
  }
})
