// What scripts/mutation-report.ts reads from a Stryker config module, as a pure function: the mutated files, where
// the JSON report is, and the run's own settings, a named export `mutationReport` (each file's bar, the equivalents
// list). A config without that export is the client run's: 95 % for every file and stryker-equivalents.json.

/** The bar of a file without one of its own, and the client run's list. */
export const DEFAULT_BAR = 95
export const DEFAULT_EQUIVALENTS = 'stryker-equivalents.json'

export interface MutationSettings {
  mutate: string[]
  /** Stryker's JSON report, as jsonReporter.fileName names it. */
  jsonReport: string
  /** The per-file table in markdown, beside the JSON report. */
  markdownReport: string
  equivalents: string
  /** Each mutated file's bar, in %. */
  bars: Record<string, number>
}

interface ConfigModule {
  default?: { mutate?: unknown; jsonReporter?: { fileName?: unknown } }
  mutationReport?: { bars?: Record<string, unknown>; equivalents?: unknown }
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

/**
 * The settings of one config module, or a one-line reason it lacks them.
 * @example readMutationSettings({ default: { mutate: ['a.ts'] } }).bars // { 'a.ts': 95 }
 */
export function readMutationSettings(module: ConfigModule): MutationSettings | { error: string } {
  const mutate = module.default?.mutate
  if (!Array.isArray(mutate) || !mutate.every(isText)) return { error: 'its mutate is not a list of files.' }
  const fileName = module.default?.jsonReporter?.fileName ?? 'reports/mutation/mutation.json'
  if (!isText(fileName) || !fileName.endsWith('.json'))
    return { error: 'its jsonReporter.fileName is not a .json file.' }
  const own = module.mutationReport ?? {}
  const equivalents = own.equivalents ?? DEFAULT_EQUIVALENTS
  if (!isText(equivalents)) return { error: 'its mutationReport.equivalents is not a file name.' }
  const bars: Record<string, number> = {}
  for (const file of mutate) {
    const bar = own.bars?.[file] ?? DEFAULT_BAR
    if (typeof bar !== 'number' || !(bar >= 0 && bar <= 100))
      return { error: `the bar of ${file} is not a percentage.` }
    bars[file] = bar
  }
  const extra = Object.keys(own.bars ?? {}).find((file) => !mutate.includes(file))
  if (extra) return { error: `it sets a bar for ${extra}, which it does not mutate.` }
  return {
    mutate,
    jsonReport: fileName,
    markdownReport: fileName.replace(/\.json$/, '.md'),
    equivalents,
    bars,
  }
}
