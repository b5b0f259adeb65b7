// What home shows. GET /api/me goes first, so a token problem meets one call and refreshes once
// (docs/behaviour.md: Session). Then the session and the process load side by side.
import type { ApiClient } from '../../api/client.ts'
import { getErrorMessage, NETWORK_ERROR_MESSAGE } from '../../api/error-messages.ts'
import type { Step } from '../../lib/process/process-steps.ts'
import type { Loader } from '../../lib/services/use-load.ts'
import { normalizeUser, type User } from '../../session/user.ts'

export interface HomeDetails {
  /** When this sign-in began; null when the session call did not say. */
  loggedInAt: string | null
  /** The steps, or the reason they could not be loaded. */
  steps: { status: 'ready'; steps: Step[] } | { status: 'failed'; message: string }
}

/** The user first (home greets at once), then the details (null while they load). */
export interface HomeData {
  user: User
  details: HomeDetails | null
}

async function loadSteps(api: ApiClient): Promise<HomeDetails['steps']> {
  try {
    const { data, error } = await api.GET('/api/process')
    return data
      ? { status: 'ready', steps: data.steps }
      : { status: 'failed', message: getErrorMessage(error) }
  } catch {
    return { status: 'failed', message: NETWORK_ERROR_MESSAGE }
  }
}

async function loadLoggedInAt(api: ApiClient): Promise<string | null> {
  try {
    const { data } = await api.GET('/api/_auth/session', { headers: { Accept: 'application/json' } })
    return data?.loggedInAt ?? null
  } catch {
    return null
  }
}

/** The user (GET /api/me), shown at once; then the session's start and the steps, side by side. */
export const loadHome: Loader<HomeData> = async (api, show) => {
  const { data, error } = await api.GET('/api/me')
  const user = normalizeUser(data)
  if (!user) return { message: getErrorMessage(error) }
  show({ user, details: null })
  const [loggedInAt, steps] = await Promise.all([loadLoggedInAt(api), loadSteps(api)])
  return { data: { user, details: { loggedInAt, steps } } }
}
