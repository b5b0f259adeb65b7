// The `account` tag: the signed-in user's data behind home, process and help. The dispatcher has
// already refused calls without a good bearer token, so `request.auth` is valid here.
import type { operations } from '#api/openapi.gen.ts'
import { ARTICLES } from '../domain/help.ts'
import { listSteps, updateStep } from '../domain/process.ts'
import { refusedByRule } from '../../pipeline/answers.ts'
import { isWritableDate } from '../../shared/dates.ts'
import type { ProductContext } from './context.ts'
import { toPublicUser } from './sign-in.ts'
import type { AuthState, OperationTable } from '../../pipeline/types.ts'

type AccountOperations = Pick<operations, 'getMe' | 'getProcess' | 'updateProcessStep' | 'getHelp'>

function requireUserId(auth: AuthState): string {
  if (auth.kind !== 'valid') throw new Error('Failed to read the account: the call was not authenticated.')
  return auth.userId
}

export function createAccountOperations({
  domain,
  accountOf,
}: ProductContext): OperationTable<AccountOperations> {
  return {
    async getMe({ request }) {
      const user = await accountOf(request.auth)
      if (!user)
        return { status: 401, body: { error: 'token_invalid', message: 'The access token is invalid.' } }
      return { status: 200, body: toPublicUser(user) }
    },
    async getProcess({ request }) {
      return { status: 200, body: { steps: await listSteps(domain, requireUserId(request.auth)) } }
    },
    async updateProcessStep({ path, body, request }) {
      // The schema states the format and refuses leap seconds; only the offset can take a date out of the years a
      // date-time can write (`0000-01-01T00:00:00+00:01`), a rule it cannot state.
      if (typeof body.scheduled_at === 'string' && !isWritableDate(Date.parse(body.scheduled_at)))
        return refusedByRule(
          'date_out_of_range',
          'scheduled_at',
          'Give a date-time from the year 0000 to 9999 (UTC).',
        )
      const step = await updateStep(domain, requireUserId(request.auth), path.id, body)
      if (!step) return { status: 404, body: { error: 'not_found', message: 'There is no such step.' } }
      return { status: 200, body: step }
    },
    getHelp() {
      return {
        status: 200,
        body: { articles: ARTICLES.map((article) => ({ ...article, tags: [...article.tags] })) },
      }
    },
  }
}
