// The sign-up code of a cluster soak user, read from /__mock/mailbox with the control token: first on the instance
// that answered the sign-up, then on every other. A code that is nowhere (its instance was killed before the mail
// was kept) is asked for again as a client would: POST /api/auth/otp/send once the cooldown allows it.
import { setTimeout as sleep } from 'node:timers/promises'
import { type Caller, send } from './http.ts'
import type { Cluster } from '#harness/cluster.ts'
import type { SoakUser, Tally } from './ledger.ts'

/** Rounds over the instances before the code is asked for again. */
const ROUNDS = 10
const ROUND_PAUSE_MS = 200
/** Codes asked for before the user gives up. */
const MAX_ASKS = 5

interface MailDeps {
  call: Caller
  cluster: Cluster
  controlToken: string
  tally: Tally
}

type Mail = { purpose: string; code?: string }

async function findCode(
  deps: MailDeps,
  user: SoakUser,
  first: number,
  used: Set<string>,
): Promise<string | null> {
  const path = `/__mock/mailbox?email=${encodeURIComponent(user.email)}`
  const headers = { 'x-mock-control-token': deps.controlToken }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const port of [first, ...deps.cluster.livePorts().filter((p) => p !== first)]) {
      try {
        const answer = await send(port, user.address, 'GET', path, { headers })
        const mails = (answer.body.messages ?? []) as Mail[]
        const code = mails.filter((mail) => mail.purpose === 'signup' && mail.code).at(-1)?.code
        if (code && !used.has(code)) return code
      } catch {
        // That instance died under the read: the next one is asked.
      }
    }
    await sleep(ROUND_PAUSE_MS)
  }
  return null
}

/** The newest sign-up code mailed to `user` and not in `used`; throws when none comes after MAX_ASKS requests. */
export async function readSignUpCode(
  deps: MailDeps,
  user: SoakUser,
  answeredBy: number,
  used: Set<string>,
): Promise<string> {
  let first = answeredBy
  for (let ask = 0; ask <= MAX_ASKS; ask += 1) {
    const code = await findCode(deps, user, first, used)
    if (code) return code
    deps.tally.codesAskedAgain += 1
    for (;;) {
      const again = await deps.call(user.address, 'POST', '/api/auth/otp/send', {
        body: { email: user.email, purpose: 'signup' },
      })
      if (again.status === 202) {
        first = again.port
        break
      }
      if (again.status !== 429) throw new Error(`asking for the code again: ${again.status}`)
      await sleep(Number(again.body.retry_after ?? 1) * 1000)
    }
  }
  throw new Error(`no sign-up code arrived after ${MAX_ASKS} requests`)
}
