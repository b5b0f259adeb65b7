// / (home): the greeting, the account, the next step of the process, and links on.
import { Link } from 'react-router-dom'
import { formatDateTime } from '../../lib/time/date-time.ts'
import { describeDevice, getDevice } from '../../lib/browser/device.ts'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { getNextStep, STATUS_LABELS } from '../../lib/process/process-steps.ts'
import { useServices } from '../../lib/services/services.ts'
import { useLoad } from '../../lib/services/use-load.ts'
import { loadHome, type HomeDetails } from './home-data.ts'
import { PATHS } from '../../lib/config/paths.ts'

function NextStep({ steps }: { steps: HomeDetails['steps'] | null }) {
  if (steps === null) return <p aria-busy="true">Loading your next step…</p>
  if (steps.status === 'failed') return <p role="alert">Your process could not be loaded. {steps.message}</p>
  if (steps.steps.length === 0) return <p>Your process has no steps yet.</p>
  const next = getNextStep(steps.steps)
  if (!next) return <p>You have completed every step. Well done!</p>
  return (
    <div className="next-step">
      <p>
        <strong>{next.title}</strong> ({STATUS_LABELS[next.status]})
      </p>
      {next.description ? <p>{next.description}</p> : null}
      <p>
        {next.scheduled_at ? (
          <>
            Scheduled for <time dateTime={next.scheduled_at}>{formatDateTime(next.scheduled_at)}</time>
          </>
        ) : (
          'Not scheduled yet.'
        )}
      </p>
    </div>
  )
}

export function HomePage() {
  useDocumentTitle('Home')
  const { userAgent } = useServices()
  const { state: load, reload } = useLoad(loadHome)
  if (load.status === 'loading') return <p aria-busy="true">Loading your account…</p>
  if (load.status === 'failed') {
    return (
      <section>
        <h1>Home</h1>
        <p role="alert">{load.message}</p>
        <button type="button" onClick={reload}>
          Try again
        </button>
      </section>
    )
  }
  const { user, details } = load.data
  const loggedInAt = details?.loggedInAt ?? null
  return (
    <section aria-labelledby="home-heading">
      <h1 id="home-heading">Welcome, {user.name || user.email}</h1>
      <section aria-labelledby="next-heading" className="card">
        <h2 id="next-heading">What is next</h2>
        <NextStep steps={details?.steps ?? null} />
        <p>
          <Link to={PATHS.process}>Go to your process</Link>
        </p>
      </section>
      <section aria-labelledby="account-heading" className="card">
        <h2 id="account-heading">Your account</h2>
        <dl className="account">
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
          <dt>Signed in since</dt>
          <dd>
            {loggedInAt ? (
              <time dateTime={loggedInAt}>{formatDateTime(loggedInAt)}</time>
            ) : details ? (
              'Unknown'
            ) : (
              '…'
            )}
          </dd>
          <dt>This device</dt>
          <dd>{describeDevice(getDevice(userAgent))}</dd>
        </dl>
      </section>
      <nav aria-label="Shortcuts" className="shortcuts">
        <ul>
          <li>
            <Link to={PATHS.process}>Your process</Link>
          </li>
          <li>
            <Link to={PATHS.help}>Help</Link>
          </li>
          <li>
            <Link to={PATHS.updatePassword}>Change your password</Link>
          </li>
        </ul>
      </nav>
    </section>
  )
}
