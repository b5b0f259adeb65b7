// The server side of every error-catalogue row: arm its scenarios, replay the client's calls, check each answer.
// Against a target without /__mock, a row whose answers a server gives by itself is produced as they happen: an access
// token past its lifetime (docs/contract-suite.md, "Expiry without moving the clock"), a refresh token of an ended session.
import { describe, expect, test } from 'vitest'
import { armRequest, ERROR_CATALOGUE, type CatalogueRow } from '#api/error-catalogue.ts'
import { recordCatalogueRow } from '#harness/catalogue-coverage.ts'
import { arm, bearer, createTestServer, type SignedIn, signUp } from '#contracts/fixtures.ts'
import { notCheckable } from '#contracts/support/target.ts'
import { EXPIRY_TEST_TIMEOUT_MS, useExpiredSessions } from '#contracts/support/expiry.ts'
import type { ContractAgent } from '#contracts/support/api.ts'

const rows = ERROR_CATALOGUE.filter((row) => row.suites.includes('contract'))

/** Whether a server gives the row's answers without /__mock: its token expires once, its session may have ended. */
const isNatural = (row: CatalogueRow): boolean =>
  row.arm.some((step) => step.name === 'access-token-expired') &&
  row.arm.every(
    (step) =>
      (step.name === 'access-token-expired' && (step.times ?? 1) === 1) || step.name === 'refresh-rejected',
  )

/** The row's account on a target without /__mock: an expired session, ended first when its refresh must fail. */
async function naturally(
  api: ContractAgent,
  row: CatalogueRow,
  expired: { take(api: ContractAgent): Promise<SignedIn> },
) {
  if (!isNatural(row))
    notCheckable(
      `a server gives this row's answers only when /__mock arms ${row.arm.map((step) => step.name).join(', ')}`,
    )
  const account = await expired.take(api)
  if (row.arm.some((step) => step.name === 'refresh-rejected'))
    await api.delete('/api/_auth/session').set('Cookie', account.cookie).expect(200)
  return account
}

describe('error catalogue, server side', () => {
  const expired = useExpiredSessions(rows.filter(isNatural).length)
  test.each(rows.map((row) => [row.id, row] as const))(
    '%s',
    async (_id, row) => {
      const { api } = await createTestServer()
      const armed = api.noControl === undefined
      const account = armed ? await signUp(api) : await naturally(api, row, expired)
      if (armed) for (const step of row.arm) await arm(api, armRequest(step, account.email))
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
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test('every row names a suite, and every contract row has server steps', () => {
    for (const row of ERROR_CATALOGUE) {
      expect(row.suites.length).toBeGreaterThan(0)
      if (row.suites.includes('contract')) expect(row.server.length).toBeGreaterThan(0)
    }
  })
})
