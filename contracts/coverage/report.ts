/**
 * The main-process side of the contract coverage: joins the workers' records with the documented pairs.
 * Pure apart from `readCoverageRecords`, which reads the run directory.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CoverageRecord } from '#contracts/coverage/recorder.ts'
import type { DocumentedPair } from '#contracts/support/openapi-documents.ts'

export interface CoverageRow extends DocumentedPair {
  hits: number
}

export interface UndocumentedRow {
  method: string
  path: string
  status: number
  hits: number
}

export interface CoverageSummary {
  rows: CoverageRow[]
  missing: CoverageRow[]
  undocumented: UndocumentedRow[]
}

/** Every record of every worker file in `dir` (`*.jsonl`, one JSON record a line). */
export function readCoverageRecords(dir: string): CoverageRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CoverageRecord)
}

/**
 * Counts the hits of every documented pair; records of pairs no longer documented are dropped.
 * @example summarizeCoverage(listDocumentedPairs(), readCoverageRecords(dir)).missing.length // 0 when complete
 */
export function summarizeCoverage(pairs: DocumentedPair[], records: CoverageRecord[]): CoverageSummary {
  const hits = new Map<string, number>()
  const undocumented = new Map<string, UndocumentedRow>()
  for (const r of records) {
    if (r.kind === 'documented') {
      const key = `${r.document} ${r.operationId} ${r.status}`
      hits.set(key, (hits.get(key) ?? 0) + 1)
    } else {
      const key = `${r.method} ${r.path} ${r.status}`
      const row = undocumented.get(key) ?? { method: r.method, path: r.path, status: r.status, hits: 0 }
      undocumented.set(key, { ...row, hits: row.hits + 1 })
    }
  }
  const rows = pairs.map((p) => ({ ...p, hits: hits.get(`${p.document} ${p.operationId} ${p.status}`) ?? 0 }))
  return { rows, missing: rows.filter((r) => r.hits === 0), undocumented: [...undocumented.values()] }
}

function alignColumns(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)))
  return cells.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  )
}

/**
 * The table, one section per document (`files` maps a document name to its file for the headings).
 * @example formatCoverageTable(summary, { openapi: 'api/openapi.yaml', control: 'api/control.openapi.yaml' })
 */
export function formatCoverageTable(summary: CoverageSummary, files: Record<string, string>): string {
  const covered = summary.rows.length - summary.missing.length
  const lines = [`Contract coverage: ${covered} of ${summary.rows.length} documented responses exercised`]
  for (const [document, file] of Object.entries(files)) {
    const rows = summary.rows.filter((r) => r.document === document)
    if (rows.length === 0) continue
    const cells = rows.map((r) => [
      r.hits > 0 ? '✔' : '✘',
      r.method,
      r.path,
      r.operationId,
      r.status,
      String(r.hits),
    ])
    lines.push('', file, ...alignColumns([['', 'method', 'path', 'operation', 'status', 'hits'], ...cells]))
  }
  if (summary.undocumented.length > 0) {
    lines.push('', 'Requests no document describes (not validated)')
    const cells = summary.undocumented.map((u) => ['·', u.method, u.path, String(u.status), String(u.hits)])
    lines.push(...alignColumns([['', 'method', 'path', 'status', 'hits'], ...cells]))
  }
  return lines.join('\n')
}
