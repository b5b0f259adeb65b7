/**
 * Setup of the `contracts` project (docs/decisions/016-contract-target.md). Against a CONTRACT_TARGET with /__mock,
 * each test starts from the seed, as in-process tests get a fresh app. Files then run one at a time.
 */
import { relative } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { checkKey, readPassedElsewhere } from '#harness/passed-elsewhere.ts'
import { useContractStore } from '#contracts/support/test-server.ts'
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
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith(`${target}/`)) return fetch(input, init)
    countTargetRequest()
    const request = new Request(input, init)
    if (controlToken && !request.headers.has('x-mock-control-token'))
      request.headers.set('x-mock-control-token', controlToken)
    const dispatcher = (await getContractTarget()).clients.fetch(target)
    // `dispatcher` is undici's option of Node's fetch, which the DOM's RequestInit does not name.
    return fetch(request, dispatcher && ({ dispatcher } as RequestInit))
  }

  // A check that sent nothing to the target checked only this repository's files, so it cannot pass there.
  afterEach((context) => {
    if (context.task.result?.state !== 'pass') return // failed, or already not checkable with its own reason
    if (targetRequestsOf(context.task) === 0)
      context.skip(`${NOT_CHECKABLE}: sends nothing to the target (it checks this repository's own files)`)
  })

  // The probe and the reset are the harness's, not the check's, so they are not counted.
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

// CONTRACT_STORE=pglite|postgres: every in-process server on that store (docs/contract-suite.md, Every store).
useContractStore()

// After the balancer leg, the checks in process on its PostgreSQL: what passed through the balancer there is not run
// again (harness/passed-elsewhere.ts). Only that step sets the list; anywhere else it would hide checks.
const elsewhere = readPassedElsewhere(process.env.CONTRACT_PASSED_ELSEWHERE, process.env.CONTRACT_STORE)
if (elsewhere)
  beforeEach((context) => {
    // fullTestName joins the describes and the test with " > ", as the CTRF reporter's name does.
    const file = relative(process.cwd(), context.task.file.filepath)
    if (elsewhere.checks.has(checkKey(file, context.task.fullTestName))) context.skip(elsewhere.reason)
  })
