// The surviving mutants judged equivalent (stryker-equivalents.json), as pure functions: scripts/mutation-report.ts
// reads Stryker's JSON report and the list, and fails on a survivor not on the list and on an entry that no longer
// matches a survivor. An entry names what the mutant changes (file, mutator, original code, replacement), never a
// line, so it survives the code moving around it.
import { EQUIVALENT } from './mutation-scores.ts'

/** Where a mutant is in its file: start inclusive, end exclusive, lines and columns from one. */
export interface ReportLocation {
  start: { line: number; column: number }
  end: { line: number; column: number }
}

/** The fields of a report mutant (mutation-testing-report-schema) read here. */
export interface LocatedMutant {
  status: string
  /** Why Stryker gave that status; for an ignored mutant, the static rule or the comment that ignored it. */
  statusReason?: string
  mutatorName: string
  replacement?: string
  location: ReportLocation
  /** Reached as its module loads (module-level code): Stryker's `ignoreStatic` ignores only such mutants. */
  static?: boolean
}

/** One listed equivalent: its key, and the one-line reason no test can tell it from the original. */
export interface Equivalent {
  file: string
  mutator: string
  original: string
  replacement: string
  reason: string
  /**
   * How many survivors of the file have this key: 1 when absent. Counted, so that a key matching a killed mutant
   * elsewhere in the file cannot hide it the day it survives.
   */
  mutants?: number
}

/** A survivor as its key and its line now, for the failure message. */
export interface Survivor {
  file: string
  line: number
  mutator: string
  original: string
  replacement: string
}

const SURVIVING = new Set(['Survived', 'NoCoverage'])
/**
 * A listed mutant whose tests ran past Stryker's time limit: on a busy machine an equivalent one, which runs every
 * test that reaches it, can. A time-out proves no test tells it apart, so it stays listed and equivalent; an
 * unlisted one counts as detected, as Stryker counts it.
 */
const TIMED_OUT = 'Timeout'
const FIELDS = ['file', 'mutator', 'original', 'replacement', 'reason'] as const

/** Code compared with its runs of white space as one space: a reflow by the formatter changes no key. */
export const normalizeCode = (code: string): string => code.replace(/\s+/g, ' ').trim()

/**
 * The original code a mutant replaces.
 * @example snippetAt('const a = 1\nlet b', { start: { line: 1, column: 11 }, end: { line: 1, column: 12 } }) // '1'
 */
export function snippetAt(source: string, { start, end }: ReportLocation): string {
  const lines = source.split('\n')
  const offset = (line: number, column: number) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1
  return normalizeCode(source.slice(offset(start.line, start.column), offset(end.line, end.column)))
}

/**
 * The list's entries, or a one-line reason it is not a list of complete entries.
 * @example parseEquivalents([]) // { equivalents: [] }
 */
export function parseEquivalents(value: unknown): { equivalents: Equivalent[] } | { error: string } {
  if (!Array.isArray(value)) return { error: 'the equivalents list is not a JSON array.' }
  for (const [index, entry] of value.entries()) {
    const missing = FIELDS.filter(
      (field) => typeof (entry as Record<string, unknown> | null)?.[field] !== 'string',
    )
    if (missing.length > 0) return { error: `entry ${index + 1} has no text for ${missing.join(', ')}.` }
    const { reason, mutants } = entry as Equivalent
    if (reason.trim() === '') return { error: `entry ${index + 1} gives no reason.` }
    if (mutants !== undefined && !(Number.isInteger(mutants) && mutants > 0))
      return { error: `entry ${index + 1} counts ${String(mutants)} mutants, not a whole number from 1.` }
    const first = (value as Equivalent[]).findIndex((other) =>
      sameKey(keyOf(other), keyOf(entry as Equivalent)),
    )
    if (first < index) return { error: `entry ${index + 1} repeats the key of entry ${first + 1}.` }
  }
  return { equivalents: value as Equivalent[] }
}

type Key = Omit<Survivor, 'line'>

/** An entry's key as a survivor's is written: its code with white space runs as one space. */
const keyOf = ({ file, mutator, original, replacement }: Equivalent): Key => ({
  file,
  mutator,
  original: normalizeCode(original),
  replacement: normalizeCode(replacement),
})

const sameKey = (a: Key, b: Key) =>
  a.file === b.file && a.mutator === b.mutator && a.original === b.original && a.replacement === b.replacement

/**
 * Marks one file's listed survivors as EQUIVALENT, and listed mutants that timed out while their entry counts more
 * than it matched survivors (a busy machine timing out an equivalent); a time-out beyond that counts as detected, so
 * it never makes room under an entry's count for a survivor. Returns the mutants so marked, the survivors on no
 * entry, and how many mutants each entry took.
 */
export function judgeFile<M extends LocatedMutant>(
  file: string,
  source: string,
  mutants: readonly M[],
  equivalents: readonly Equivalent[],
): { mutants: M[]; unlisted: Survivor[]; matched: Map<Equivalent, number> } {
  const unlisted: Survivor[] = []
  const matched = new Map<Equivalent, number>()
  const entryOf = (mutant: M) => {
    const survivor = {
      file,
      line: mutant.location.start.line,
      mutator: mutant.mutatorName,
      original: snippetAt(source, mutant.location),
      replacement: normalizeCode(mutant.replacement ?? ''),
    }
    return { survivor, entry: equivalents.find((candidate) => sameKey(survivor, keyOf(candidate))) }
  }
  const judged = mutants.map((mutant) => {
    if (!SURVIVING.has(mutant.status)) return mutant
    const { survivor, entry } = entryOf(mutant)
    if (!entry) return (unlisted.push(survivor), mutant)
    matched.set(entry, (matched.get(entry) ?? 0) + 1)
    return { ...mutant, status: EQUIVALENT }
  })
  return {
    mutants: judged.map((mutant) => {
      if (mutant.status !== TIMED_OUT) return mutant
      const { entry } = entryOf(mutant)
      const taken = entry ? (matched.get(entry) ?? 0) : 0
      if (!entry || taken >= (entry.mutants ?? 1)) return mutant
      matched.set(entry, taken + 1)
      return { ...mutant, status: EQUIVALENT }
    }),
    unlisted,
    matched,
  }
}

/** How a failure names a survivor: where it is now, and the entry that would list it (add a reason). */
export function describeSurvivor({ line, ...key }: Survivor): string {
  return `${key.file}:${line} ${JSON.stringify({ ...key, reason: '' })}`
}

/** How a failure names an entry that matched no survivor. */
export function describeEquivalent({ reason: _reason, mutants: _mutants, ...key }: Equivalent): string {
  return JSON.stringify(key)
}
