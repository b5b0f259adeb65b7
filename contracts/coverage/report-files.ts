/**
 * The contract coverage as files CI reads (docs/decisions/018-reports.md): `coverage.json`, `.md` and `.html`.
 */
import { join } from 'node:path'
import type { CoverageSummary } from '#contracts/coverage/report.ts'
import { toHtml, toMarkdown, type ReportDocument, type ReportTable } from '#harness/reports/tables.ts'
import { writeReport } from '#harness/reports/ctrf.ts'
import { modelRunsTable, writeModelRuns, type ModelRunEntry } from '#harness/reports/model-runs.ts'

export interface CoverageReportInput {
  summary: CoverageSummary
  /** Document name -> its file, for the headings. */
  files: Record<string, string>
  /** The CONTRACT_TARGET of the run, or null for the in-process run. */
  target: string | null
  /** The run's verdict, as printed. */
  verdict: string[]
  notCheckable: { file: string; name: string; reason: string }[]
  /** The checks that ran against the target because its settings equal those they asked for (none in-process). */
  matchedSettings?: { file: string; name: string; settings: string[] }[]
  /** The model-based runs of this run (contracts/model/), from their tests' meta. */
  modelRuns?: ModelRunEntry[]
}

/** The report as a document of tables. Pure. */
export function coverageDocument({
  summary,
  files,
  target,
  verdict,
  notCheckable,
  matchedSettings = [],
  modelRuns = [],
}: CoverageReportInput): ReportDocument {
  const covered = summary.rows.length - summary.missing.length
  const tables: ReportTable[] = Object.entries(files).flatMap(([document, file]) => {
    const rows = summary.rows.filter((row) => row.document === document)
    if (rows.length === 0) return []
    const reached = rows.filter((row) => row.hits > 0).length
    return [
      {
        title: file,
        summary: [`${reached} of ${rows.length} documented responses exercised.`],
        columns: ['', 'method', 'path', 'operation', 'status', 'hits'],
        rows: rows.map((row) => [
          row.hits > 0 ? '✔' : '✘',
          row.method,
          row.path,
          row.operationId,
          row.status,
          String(row.hits),
        ]),
      },
    ]
  })
  if (summary.undocumented.length > 0)
    tables.push({
      title: 'Requests no document describes (not validated)',
      summary: [],
      columns: ['method', 'path', 'status', 'hits'],
      rows: summary.undocumented.map((row) => [row.method, row.path, String(row.status), String(row.hits)]),
    })
  if (target !== null)
    tables.push({
      title: `Not checkable against ${target}`,
      summary: [`${notCheckable.length} checks, each with the reason it could not be made there.`],
      columns: ['file', 'check', 'reason'],
      rows: notCheckable.map((check) => [check.file, check.name, check.reason]),
    })
  if (target !== null && matchedSettings.length > 0)
    tables.push({
      title: `Ran against ${target} on the settings they asked for`,
      summary: [
        `${matchedSettings.length} checks asked for a server built with settings, and the target has them (contracts/support/target-settings.ts).`,
      ],
      columns: ['file', 'check', 'settings'],
      rows: matchedSettings.map((check) => [check.file, check.name, check.settings.join(', ')]),
    })
  const models = modelRunsTable(modelRuns)
  if (models) tables.push(models)
  return {
    title: 'Contract coverage',
    summary: [
      `${covered} of ${summary.rows.length} documented responses exercised${target ? ` against ${target}` : ''}.`,
      ...verdict,
    ],
    tables,
  }
}

/** Writes coverage.json, coverage.md, coverage.html and model-runs.json into `dir`; returns their paths. */
export function writeCoverageReports(dir: string, input: CoverageReportInput): string[] {
  const document = coverageDocument(input)
  const json = {
    target: input.target,
    covered: input.summary.rows.length - input.summary.missing.length,
    documented: input.summary.rows.length,
    verdict: input.verdict,
    rows: input.summary.rows,
    missing: input.summary.missing,
    undocumented: input.summary.undocumented,
    notCheckable: input.notCheckable,
    matchedSettings: input.matchedSettings ?? [],
    modelRuns: input.modelRuns ?? [],
  }
  const written = [
    [join(dir, 'coverage.json'), JSON.stringify(json, null, 2)],
    [join(dir, 'coverage.md'), toMarkdown(document)],
    [join(dir, 'coverage.html'), toHtml(document)],
  ] as const
  for (const [file, text] of written) writeReport(file, text)
  return [...written.map(([file]) => file), writeModelRuns(dir, input.modelRuns ?? [])]
}
