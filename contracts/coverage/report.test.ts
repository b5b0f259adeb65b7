import { describe, expect, test } from 'vitest'
import { formatCoverageTable, summarizeCoverage } from '#contracts/coverage/report.ts'
import type { DocumentedPair } from '#contracts/support/openapi-documents.ts'

const PAIRS: DocumentedPair[] = [
  { document: 'openapi', operationId: 'getMe', method: 'GET', path: '/api/me', status: '200' },
  { document: 'openapi', operationId: 'getMe', method: 'GET', path: '/api/me', status: 'default' },
  { document: 'control', operationId: 'resetMock', method: 'POST', path: '/__mock/reset', status: '200' },
]

describe('summarizeCoverage', () => {
  test('counts hits per documented pair and groups undocumented requests', () => {
    const summary = summarizeCoverage(PAIRS, [
      { kind: 'documented', document: 'openapi', operationId: 'getMe', status: '200' },
      { kind: 'documented', document: 'openapi', operationId: 'getMe', status: '200' },
      { kind: 'documented', document: 'control', operationId: 'resetMock', status: '200' },
      { kind: 'documented', document: 'openapi', operationId: 'gone', status: '200' },
      { kind: 'undocumented', method: 'GET', path: '/api/nope', status: 404 },
      { kind: 'undocumented', method: 'GET', path: '/api/nope', status: 404 },
    ])
    expect(summary.rows.map((r) => r.hits)).toEqual([2, 0, 1])
    expect(summary.missing).toEqual([{ ...PAIRS[1], hits: 0 }])
    expect(summary.undocumented).toEqual([{ method: 'GET', path: '/api/nope', status: 404, hits: 2 }])
  })
})

describe('formatCoverageTable', () => {
  test('prints one section per document with ✔/✘ and hits', () => {
    const summary = summarizeCoverage(PAIRS, [
      { kind: 'documented', document: 'openapi', operationId: 'getMe', status: '200' },
    ])
    const table = formatCoverageTable(summary, {
      openapi: 'openapi.yaml',
      control: 'mock-server/control.openapi.yaml',
    })
    expect(table.split('\n')).toEqual([
      'Contract coverage: 1 of 3 documented responses exercised',
      '',
      'openapi.yaml',
      '   method  path     operation  status   hits',
      '✔  GET     /api/me  getMe      200      1',
      '✘  GET     /api/me  getMe      default  0',
      '',
      'mock-server/control.openapi.yaml',
      '   method  path           operation  status  hits',
      '✘  POST    /__mock/reset  resetMock  200     0',
    ])
  })
})
