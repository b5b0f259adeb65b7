/**
 * The order of a mutant's test files in the mutation runs (vitest.mutation.config.ts,
 * vitest.mutation-server.config.ts): cheapest first. Stryker stops a mutant at its first failing test, so a killed
 * mutant costs the files run before the one that kills it. Vitest's own order runs the longest files first, best for
 * a whole suite on several workers and worst here: a file booting PGlite ran before the unit test that kills the
 * mutant in a millisecond (docs/benchmarks.md, "npm run test:mutation").
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** What the order reads of a test file: its place (group, project) and what a run of it costs. */
export interface FileCost {
  group: number
  project: string
  /** Milliseconds of its longest run so far (LongestRuns), or undefined before any. */
  duration: number | undefined
  /** Bytes, for a file with no run yet. */
  size: number | undefined
}

/**
 * Groups and projects in vitest's order; then the shortest run, then the smallest file (vitest runs a file that
 * failed last first, then the longest and the largest). Failed-first loses here: once a file booting PGlite killed
 * one mutant, it ran first for each of its neighbours, which a unit test killed in milliseconds.
 */
export function cheapestFirst(a: FileCost, b: FileCost): number {
  if (a.group !== b.group) return a.group - b.group
  if (a.project !== b.project) return a.project < b.project ? -1 : 1
  if (a.duration !== undefined && b.duration !== undefined) return a.duration - b.duration
  if (a.duration !== b.duration) return a.duration === undefined ? 1 : -1
  return (a.size ?? Infinity) - (b.size ?? Infinity)
}

/**
 * The longest run of each test file seen so far. Vitest keeps only the last run, and a run that filtered out every
 * test of a file (Stryker filters by test name) records a few milliseconds even for a file whose setup boots a
 * database: by that figure the costliest file would go first at the next mutant.
 */
export class LongestRuns {
  private readonly longest = new Map<string, number>()

  /** Notes this run of `key` (undefined: none yet) and answers the longest seen, or undefined before any. */
  see(key: string, duration: number | undefined): number | undefined {
    if (duration === undefined) return this.longest.get(key)
    const longest = Math.max(this.longest.get(key) ?? 0, duration)
    this.longest.set(key, longest)
    return longest
  }
}

export default class CheapestFirst extends BaseSequencer {
  // One per Vitest instance, which a Stryker test runner keeps for all its mutants.
  private readonly runs = new LongestRuns()

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const costOf = (spec: TestSpecification): FileCost => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`
      const last = this.ctx.cache.getFileTestResults(key)
      return {
        group: spec.project.config.sequence.groupOrder,
        project: spec.project.name,
        duration: this.runs.see(key, last?.duration),
        size: this.ctx.cache.getFileStats(key)?.size,
      }
    }
    return files
      .map((spec) => ({ spec, cost: costOf(spec) }))
      .sort((a, b) => cheapestFirst(a.cost, b.cost))
      .map(({ spec }) => spec)
  }
}
