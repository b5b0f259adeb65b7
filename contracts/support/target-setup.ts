/**
 * Setup of the `contracts` project (vitest.config.ts). Against a CONTRACT_TARGET whose /__mock answers, every test
 * starts from the seed state, as an in-process run gives each test a fresh app: `POST /__mock/reset` before each
 * (the project then runs one file at a time, so no reset lands in another file's test). Without a target, or
 * against one without a usable /__mock, it does nothing (docs/decisions/016-contract-target.md).
 */
import { beforeEach } from 'vitest'
import { getContractTarget, TARGET_URL } from '#contracts/support/target.ts'

if (TARGET_URL) {
  beforeEach(async () => {
    const target = await getContractTarget()
    if (target.noControl !== null) return
    const response = await fetch(`${target.baseUrl}/__mock/reset`, {
      method: 'POST',
      headers: { ...target.headers, 'Content-Type': 'application/json' },
      body: '{}',
    })
    if (!response.ok)
      throw new Error(`Failed to reset the contract target: POST /__mock/reset answered ${response.status}.`)
  })
}
