// A temporary folder for one test, removed when the test ends, pass or fail: a developer runs these suites all day
// and a mutation run runs them thousands of times, so a folder left behind per run fills the disk.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** Creates `<tmp>/<prefix>-XXXXXX`; call it inside a test (a folder shared by a file's tests belongs in beforeAll). */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  onTestFinished(() => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
    } catch {
      // A server the test started still writing into it (ENOTEMPTY; a mutant can keep one saving): the folder
      // stays. A failed removal must not fail the test: in a mutation run that reads as a kill.
    }
  })
  return dir
}
