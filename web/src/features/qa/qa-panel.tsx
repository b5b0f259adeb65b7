// The QA panel (ADR 008, docs/behaviour.md: Signed-in area), shown only with config.json `mock: true`.
// It arms scenarios, moves the server's clock and shows calls and mail, so the demo without a server is testable.
// A control token is asked once and kept in memory only, never stored.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useServices } from '../../lib/services/services.ts'
import { useSession } from '../../session/use-session.ts'
import {
  createMockClient,
  MockClientError,
  type JournalEntry,
  type Mail,
  type MockClient,
  type ScenarioInfo,
} from '#api/mock-client.ts'
import './qa-panel.css'

export const QA_TEST_ERROR = 'QA panel: a test error'
/** Both OpenAPI documents in the browser, served by the mock server (mock-server/control.openapi.yaml, tag docs). */
const DOCS_PATH = '/__mock/docs'
const JOURNAL_LENGTH = 10

function describeEntry(entry: JournalEntry): string {
  const what = entry.operation ? ` (${entry.operation}${entry.scenario ? `, ${entry.scenario}` : ''})` : ''
  return `${entry.method} ${entry.path} → ${entry.status}${what}`
}

function Crash(): never {
  throw new Error(QA_TEST_ERROR)
}

function QaControls({
  control,
  email,
  onTokenRequired,
}: {
  control: MockClient
  email: string | null
  onTokenRequired: () => void
}) {
  const [scenarios, setScenarios] = useState<ScenarioInfo[]>([])
  const [scenario, setScenario] = useState('')
  const [minutes, setMinutes] = useState('15')
  const [journal, setJournal] = useState<JournalEntry[]>([])
  const [address, setAddress] = useState('')
  const [mail, setMail] = useState<Mail[] | null>(null)
  const [status, setStatus] = useState('')
  const [crash, setCrash] = useState(false)
  const ids = useId()

  const run = useCallback(
    async (action: () => Promise<string | void>) => {
      try {
        const done = await action()
        if (done) setStatus(done)
      } catch (error) {
        if (error instanceof MockClientError && error.code === 'control_token_required') onTokenRequired()
        setStatus(error instanceof Error ? error.message : String(error))
      }
    },
    [onTokenRequired],
  )
  const showJournal = useCallback(
    () => run(async () => void (email && setJournal((await control.requests(email)).slice(-JOURNAL_LENGTH)))),
    [control, email, run],
  )

  useEffect(() => {
    void run(async () => {
      const { available } = await control.scenarios()
      setScenarios(available)
      setScenario((current) => current || (available[0]?.name ?? ''))
    })
    void showJournal()
  }, [control, run, showJournal])

  if (crash) return <Crash />
  return (
    <>
      <h2>Scenarios</h2>
      <label htmlFor={`${ids}-scenario`}>Scenario</label>
      <select id={`${ids}-scenario`} value={scenario} onChange={(event) => setScenario(event.target.value)}>
        {scenarios.map((one) => (
          <option key={one.name} value={one.name} title={one.description}>
            {one.name}
          </option>
        ))}
      </select>
      <p>{scenarios.find((one) => one.name === scenario)?.description}</p>
      <button
        type="button"
        disabled={!email || !scenario}
        onClick={() =>
          void run(async () => {
            await control.arm({ name: scenario as ScenarioInfo['name'], email: email! })
            await showJournal()
            return `Armed ${scenario} for ${email}.`
          })
        }
      >
        Arm for my account
      </button>
      {email ? null : <p>Sign in to arm a scenario for your account.</p>}
      <h2>Server clock</h2>
      <label htmlFor={`${ids}-minutes`}>Minutes to advance</label>
      <input
        id={`${ids}-minutes`}
        type="number"
        min="1"
        value={minutes}
        onChange={(event) => setMinutes(event.target.value)}
      />
      <button
        type="button"
        disabled={!(Number(minutes) > 0)}
        onClick={() =>
          void run(async () => {
            const clock = await control.advanceClock(Math.round(Number(minutes) * 60_000))
            return `Server time: ${clock.now} (${Math.round(clock.offset_ms / 60_000)} min ahead).`
          })
        }
      >
        Advance the server clock
      </button>
      <h2>Mailbox</h2>
      <label htmlFor={`${ids}-address`}>Address</label>
      <input
        id={`${ids}-address`}
        type="email"
        placeholder={email ?? undefined}
        value={address}
        onChange={(event) => setAddress(event.target.value)}
      />
      <button
        type="button"
        disabled={!(address.trim() || email)}
        onClick={() =>
          void run(async () => setMail((await control.mailbox(address.trim() || email!)).slice().reverse()))
        }
      >
        Show the mail
      </button>
      {mail === null ? null : mail.length > 0 ? (
        <ol aria-label="Mailbox">
          {mail.map((one) => (
            <li key={`${one.sent_at}-${one.purpose}-${one.code ?? ''}`}>
              {one.purpose}
              {one.code ? `: ${one.code}` : ''} ({one.to})
            </li>
          ))}
        </ol>
      ) : (
        <p>No mail for this address.</p>
      )}
      <h2>Last calls</h2>
      <button type="button" disabled={!email} onClick={() => void showJournal()}>
        Refresh the calls
      </button>
      {journal.length > 0 ? (
        <ol aria-label="Last calls">
          {journal.map((entry) => (
            <li key={entry.seq}>{describeEntry(entry)}</li>
          ))}
        </ol>
      ) : (
        <p>No calls yet.</p>
      )}
      <h2>Error reporting</h2>
      <button type="button" onClick={() => setCrash(true)}>
        Throw a test error
      </button>
      <p role="status">{status}</p>
    </>
  )
}

/** Asks for the mock server's control token (--control-token), for this page's life only. */
function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('')
  const id = useId()
  return (
    <form
      aria-label="Control token"
      onSubmit={(event) => {
        event.preventDefault()
        if (value.trim() !== '') onToken(value.trim())
      }}
    >
      <p>This mock server asks for its control token (the one it was started with).</p>
      <label htmlFor={id}>Control token</label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button type="submit">Use the token</button>
    </form>
  )
}

export function QaPanel({ control: injected }: { control?: MockClient }) {
  const { fetch, origin } = useServices()
  const { isLoggedIn, user } = useSession()
  const [token, setToken] = useState<string | undefined>(undefined)
  const [tokenRequired, setTokenRequired] = useState(false)
  const onTokenRequired = useCallback(() => setTokenRequired(true), [])
  const control = useMemo(
    () => injected ?? createMockClient({ fetch, baseUrl: origin, ...(token && { controlToken: token }) }),
    [injected, fetch, origin, token],
  )
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    setOpen(false)
    toggle.current?.focus()
  }
  return (
    <aside className="qa-panel" aria-label="QA tools" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        QA panel
      </button>
      {open ? (
        <section id={panelId} aria-label="QA panel" className="qa-panel-body">
          {/* The reference asks for no control token (docs/decisions/019-cli-and-docs.md): shown before the form. */}
          <p>
            <a href={DOCS_PATH} target="_blank" rel="noreferrer">
              API reference (opens in a new tab)
            </a>
          </p>
          {tokenRequired ? (
            <TokenForm
              onToken={(typed) => {
                setToken(typed)
                setTokenRequired(false)
              }}
            />
          ) : null}
          <QaControls
            control={control}
            email={isLoggedIn && user?.email ? user.email : null}
            onTokenRequired={onTokenRequired}
          />
        </section>
      ) : null}
    </aside>
  )
}
