/**
 * Setup of the `contracts` project (vitest.config.ts). Against a CONTRACT_TARGET whose /__mock answers, every test
 * starts from the seed state, as an in-process run gives each test a fresh app: `POST /__mock/reset` before each
 * (the project then runs one file at a time, so no reset lands in another file's test). Without a target, or
 * against one without a usable /__mock, it does nothing (docs/decisions/016-contract-target.md).
 */
import { afterEach, beforeEach } from 'vitest'
import {
  countTargetRequest,
  getContractTarget,
  NOT_CHECKABLE,
  TARGET_URL,
  targetRequestsOf,
  unwrappedFetch,
} from '#contracts/support/target.ts'

if (TARGET_URL) {
  const target = TARGET_URL
  // Plain fetch calls to the target count too, and carry the control token as the agent's requests do.
  // Wrap the unwrapped fetch: this runs once per file, and wrapping a wrapper would count every request twice.
  const fetch = unwrappedFetch
  const controlToken = process.env.CONTRACT_CONTROL_TOKEN?.trim()
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith(`${target}/`)) return fetch(input, init)
    countTargetRequest()
    const request = new Request(input, init)
    if (controlToken && !request.headers.has('x-mock-control-token'))
      request.headers.set('x-mock-control-token', controlToken)
    return fetch(request)
  }

  // A check that sent nothing to the target checked only this repository's files, so it cannot pass there.
  afterEach((context) => {
    if (context.task.result?.state !== 'pass') return // failed, or already not checkable with its own reason
    if (targetRequestsOf(context.task) === 0)
      context.skip(`${NOT_CHECKABLE}: sends nothing to the target (it checks this repository's own files)`)
  })

  // The probe and the reset are the harness's, not the check's: they go through the unwrapped fetch, and the count
  // starts after them.
  beforeEach(async (context) => {
    try {
      const target = await getContractTarget()
      if (target.noControl !== null) return
      const response = await fetch(`${target.baseUrl}/__mock/reset`, {
        method: 'POST',
        headers: { ...target.headers, 'Content-Type': 'application/json' },
        body: '{}',
      })
      if (!response.ok)
        throw new Error(
          `Failed to reset the contract target: POST /__mock/reset answered ${response.status}.`,
        )
    } finally {
      context.task.meta.targetRequests = 0
    }
  })
}
