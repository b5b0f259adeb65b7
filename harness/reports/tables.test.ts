import { expect, test } from 'vitest'
import { toHtml, toMarkdown, type ReportDocument } from './tables.ts'

const DOCUMENT: ReportDocument = {
  title: 'Coverage <of> "this"',
  summary: ['All reached.'],
  tables: [
    {
      title: 'openapi.yaml',
      summary: ['2 of 3.'],
      columns: ['', 'path', 'hits'],
      rows: [
        ['✔', '/api/a|b', '1'],
        ['✘', '/api/<script>alert(1)</script>', '0'],
        ['n/a', "it's", '0'],
      ],
    },
  ],
}

test('Markdown: a heading per table, the summary, and cells whose pipes cannot break the row', () => {
  const text = toMarkdown(DOCUMENT)
  expect(text).toContain('# Coverage <of> "this"\n\nAll reached.\n')
  expect(text).toContain('## openapi.yaml\n\n2 of 3.\n\n|  | path | hits |\n|---|---|---|\n')
  expect(text).toContain('| ✔ | /api/a\\|b | 1 |')
})

test('HTML: one page with nothing loaded from elsewhere, every text escaped, reached and missing cells marked', () => {
  const page = toHtml(DOCUMENT)
  expect(page).toMatch(/^<!doctype html>/)
  expect(page).not.toMatch(/<script|<link|src=|href=/)
  expect(page).toContain('<title>Coverage &lt;of&gt; &quot;this&quot;</title>')
  expect(page).toContain('<td>/api/&lt;script&gt;alert(1)&lt;/script&gt;</td>')
  expect(page).toContain('<td class="yes">✔</td>')
  expect(page).toContain('<td class="no">✘</td>')
  expect(page).toContain('<td class="na">n/a</td><td>it&#39;s</td>')
})
