/**
 * A report table as Markdown, JSON and self-contained HTML (docs/decisions/018-reports.md).
 * Pure: imports nothing; callers write the files.
 */

export interface ReportTable {
  title: string
  /** Sentences shown above the table (the verdict first). */
  summary: string[]
  columns: string[]
  rows: string[][]
}

export interface ReportDocument {
  title: string
  /** Sentences shown at the top of the page. */
  summary: string[]
  tables: ReportTable[]
}

const escapeMarkdown = (cell: string) =>
  cell.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', ' ')

/** @example toMarkdown({ title: 'Coverage', summary: ['All reached.'], tables: [] }) */
export function toMarkdown(document: ReportDocument): string {
  const lines = [`# ${document.title}`, '', ...document.summary.flatMap((line) => [line, ''])]
  for (const table of document.tables) {
    lines.push(`## ${table.title}`, '', ...table.summary.flatMap((line) => [line, '']))
    lines.push(`| ${table.columns.map(escapeMarkdown).join(' | ')} |`)
    lines.push(`|${table.columns.map(() => '---').join('|')}|`)
    for (const row of table.rows) lines.push(`| ${row.map(escapeMarkdown).join(' | ')} |`)
    lines.push('')
  }
  return lines.join('\n')
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

/** Cells the page marks: a reached row, a missing one, one that does not apply. */
const CELL_CLASS: Record<string, string> = {
  '✔': 'yes',
  yes: 'yes',
  '✘': 'no',
  NO: 'no',
  'n/a': 'na',
}

/** @example toHtml({ title: 'Coverage', summary: [], tables: [] }) // '<!doctype html>…' */
export function toHtml(document: ReportDocument): string {
  const tables = document.tables
    .map((table) => {
      const head = table.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')
      const body = table.rows
        .map(
          (row) =>
            `<tr>${row
              .map((cell) => {
                const kind = CELL_CLASS[cell]
                return `<td${kind ? ` class="${kind}"` : ''}>${escapeHtml(cell)}</td>`
              })
              .join('')}</tr>`,
        )
        .join('\n')
      return [
        `<section><h2>${escapeHtml(table.title)}</h2>`,
        ...table.summary.map((line) => `<p>${escapeHtml(line)}</p>`),
        `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></section>`,
      ].join('\n')
    })
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1b1f24; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; }
th { background: #f6f8fa; }
td.yes { color: #116329; } td.no { color: #a40e26; font-weight: 600; } td.na { color: #6e7781; }
@media (prefers-color-scheme: dark) { body { background: #0d1117; color: #e6edf3; } th { background: #161b22; }
  th, td { border-color: #30363d; } td.yes { color: #3fb950; } td.no { color: #ff7b72; } }
</style>
</head>
<body>
<h1>${escapeHtml(document.title)}</h1>
${document.summary.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
${tables}
</body>
</html>
`
}
