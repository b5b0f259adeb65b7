/**
 * A Vitest reporter for the mutation runs only (vitest.mutation.config.ts): each test file that failed to load
 * gets one failed test carrying its load error. Stryker's vitest runner takes a mutant's verdict from the tests it
 * collected, and a file whose import throws holds none; so a mutant that stops a module from loading (a table built
 * as the module loads, say) read as survived, though every test of that module failed
 * (docs/benchmarks.md, "npm run test:mutation").
 */
import type { Reporter, Vitest } from 'vitest/node'

/** The parts of a Vitest file task (its runner's `File`) read and written here. */
export interface CollectedFile {
  id: string
  name: string
  filepath: string
  result?: { state: string; errors?: readonly { message?: string }[] }
  tasks: object[]
}

/** The name of the test a file that failed to load gets. */
export const LOAD_FAILURE = 'fails to load'

/**
 * Adds the failed test to each file that failed with no task collected; returns how many files got one.
 * A file that loaded keeps its tasks as they are, passed or failed.
 */
export function addLoadFailures(files: readonly CollectedFile[]): number {
  const unloaded = files.filter((file) => file.result?.state === 'fail' && file.tasks.length === 0)
  for (const file of unloaded) {
    file.tasks.push({
      type: 'test',
      id: `${file.id}_load`,
      name: LOAD_FAILURE,
      fullName: `${file.name} ${LOAD_FAILURE}`,
      mode: 'run',
      file,
      suite: file,
      meta: {},
      result: { state: 'fail', errors: file.result?.errors ?? [] },
    })
  }
  return unloaded.length
}

export default class LoadFailureReporter implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  // The runner reads the state's files once the run has ended, after every reporter's onTestRunEnd.
  onTestRunEnd(): void {
    if (this.vitest) addLoadFailures(this.vitest.state.getFiles())
  }
}
