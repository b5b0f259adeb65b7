// The server side of every error-catalogue row: arm its scenarios, replay the client's calls, check each answer.
import { describe, expect, test } from 'vitest'
import { armRequest, ERROR_CATALOGUE } from '#api/error-catalogue.ts'
import { recordCatalogueRow } from '#harness/catalogue-coverage.ts'
import { arm, bearer, createTestServer, signUp } from '#contracts/fixtures.ts'

const rows = ERROR_CATALOGUE.filter((row) => row.suites.includes('contract'))

describe('error catalogue, server side', () => {
  test.each(rows.map((row) => [row.id, row] as const))('%s', async (_id, row) => {
    const { api } = await createTestServer()
    const account = await signUp(api)
    for (const step of row.arm) await arm(api, armRequest(step, account.email))
    let token = account.token
    for (const step of row.server) {
      const res =
        step.call === 'protected'
          ? await api.get('/api/me').set(bearer(token))
          : await api.post('/api/refresh_token').send({ refresh_token: account.refreshToken })
      expect(res.status).toBe(step.status)
      expect(res.body.error ?? null).toBe(step.code)
      if (step.message !== undefined) expect(res.body.message ?? null).toBe(step.message)
      if (step.success !== undefined) expect(res.body.success).toBe(step.success)
      if (step.refreshToken !== undefined)
        expect(typeof res.body.refresh_token === 'string').toBe(step.refreshToken)
      if (step.call === 'refresh' && typeof res.body.token === 'string') token = res.body.token
    }
    recordCatalogueRow(row.id, 'contract')
  })

  test('every row names a suite, and every contract row has server steps', () => {
    for (const row of ERROR_CATALOGUE) {
      expect(row.suites.length).toBeGreaterThan(0)
      if (row.suites.includes('contract')) expect(row.server.length).toBeGreaterThan(0)
    }
  })
})
