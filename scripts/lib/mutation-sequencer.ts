/**
 * The order of a mutant's test files in the mutation runs (vitest.mutation.config.ts,
 * vitest.mutation-server.config.ts): cheapest first. Stryker stops a mutant at its first failing test, so a killed
 * mutant costs the files run before the one that kills it. Vitest's own order runs the longest files first, best for
 * a whole suite on several workers and worst here: a file booting PGlite ran before the unit test that kills the
 * mutant in a millisecond (docs/benchmarks.md, "npm run test:mutation").
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** What the order reads of a test file: its place (group, project) and what the last run of it cost. */
export interface FileCost {
  group: number
  project: string
  /** It failed in the last run: the mutant before was killed there, and the next is often killed by the same file. */
  failed: boolean
  /** Milliseconds of its last run, or undefined before any. */
  duration: number | undefined
  /** Bytes, for a file with no run yet. */
  size: number | undefined
}

/**
 * Groups and projects in vitest's order; then a file that failed last run (as vitest does); then the shortest last
 * run, then the smallest file (vitest runs the longest and the largest first).
 */
export function cheapestFirst(a: FileCost, b: FileCost): number {
  if (a.group !== b.group) return a.group - b.group
  if (a.project !== b.project) return a.project < b.project ? -1 : 1
  if (a.failed !== b.failed) return a.failed ? -1 : 1
  if (a.duration !== undefined && b.duration !== undefined) return a.duration - b.duration
  if (a.duration !== b.duration) return a.duration === undefined ? 1 : -1
  return (a.size ?? Infinity) - (b.size ?? Infinity)
}

export default class CheapestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const costOf = (spec: TestSpecification): FileCost => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`
      const last = this.ctx.cache.getFileTestResults(key)
      return {
        group: spec.project.config.sequence.groupOrder,
        project: spec.project.name,
        failed: last?.failed ?? false,
        duration: last?.duration,
        size: this.ctx.cache.getFileStats(key)?.size,
      }
    }
    return files
      .map((spec) => ({ spec, cost: costOf(spec) }))
      .sort((a, b) => cheapestFirst(a.cost, b.cost))
      .map(({ spec }) => spec)
  }
}
