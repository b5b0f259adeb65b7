// Records console.error calls during a test; a test that expects some says so with `expectConsoleError(pattern)`.

const calls: unknown[][] = []
const expected: RegExp[] = []

export const consoleErrors = {
  reset() {
    calls.length = 0
    expected.length = 0
  },
  record(args: unknown[]) {
    calls.push(args)
  },
  takeUnexpected(): unknown[][] {
    const unexpected = calls.filter(
      (args) => !expected.some((pattern) => pattern.test(args.map(String).join(' '))),
    )
    calls.length = 0
    return unexpected
  },
}

/** Lets console.error lines that match `pattern` pass in the current test. */
export function expectConsoleError(pattern: RegExp) {
  expected.push(pattern)
}
