// What the QA command line takes, checked before the server is asked (scenario-cli.ts runs the commands).
// A UsageError is the caller's mistake: exit code 2, one line.
import { parseArgs } from 'node:util'
import { parseSince } from '#api/control-values.ts'

export const SCENARIO_HELP = `Usage: npm run scenario -- <command> [options]

Drives a running mock server (default http://127.0.0.1:$PORT or :4010; --url or MOCK_URL to change).
When the server has a control token, set MOCK_CONTROL_TOKEN to it: every call sends it.
Prints tables and sentences (coloured on a terminal; NO_COLOR and FORCE_COLOR are honoured);
--json prints the server's answers as JSON instead, for scripts.

Commands:
  list                          The scenarios that can be armed, and those armed now.
  <scenario> [options]          Arm a scenario, e.g. access-token-expired --email ada@example.com
      --email <address>           Only this account's calls (recommended).
      --times <n>                 How many matching calls it serves (default 1).
      --until-cleared             Serve every matching call until cleared.
      --operation <operationId>   Only this operation, e.g. getMe.
      --status <n>                With server-error (default 503).
      --message <text>            The message of the answer.
      --delay <duration>          With latency, e.g. 2s.
  clear [--email <address>]     Disarm all scenarios, or one account's.
  clock                         Show the server's clock.
  clock +15m                    Move the clock forward (ms, s, m, h, d).
  clock 2030-01-01T00:00:00Z    Set the clock.
  mailbox <address>             The mails sent to an address (codes included).
  requests [--email <address>] [--since <seq>]   The request journal.
  watch [--email <address>] [--since <seq>] [--interval <duration>]
                                Follow the journal live: each call as it happens (--json: one JSON line
                                each). Ctrl-C stops.
  reset                         Back to the seed state.
  --json                        Print the answers as JSON.
  --help                        This text.
`

export const OPTIONS = {
  email: { type: 'string' },
  times: { type: 'string' },
  'until-cleared': { type: 'boolean' },
  operation: { type: 'string' },
  status: { type: 'string' },
  message: { type: 'string' },
  delay: { type: 'string' },
  since: { type: 'string' },
  interval: { type: 'string' },
  url: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const

/** How many words each command takes after its name (a scenario takes none). */
export const ARGUMENTS: Record<string, number> = {
  list: 0,
  reset: 0,
  clear: 0,
  requests: 0,
  watch: 0,
  mailbox: 1,
  clock: 1,
}

export class UsageError extends Error {}

export const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS })
export type Values = ReturnType<typeof parse>['values']

/** An address fetch can call. One with a user or password is refused, and not echoed: it may hold a secret. */
export function checkServerUrl(base: string): void {
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new UsageError(
      'Failed to read the server address (--url or MOCK_URL): use e.g. http://127.0.0.1:4010.',
    )
  }
  if (url.username || url.password)
    throw new UsageError(
      'The server address (--url or MOCK_URL) carries a user or password: leave them out (a control token goes in MOCK_CONTROL_TOKEN).',
    )
}

export function checkArguments(command: string, rest: string[], values: Values): void {
  const allowed = ARGUMENTS[command] ?? 0
  if (rest.length > allowed) {
    const extra = rest[allowed]!
    const hint = extra.includes('@') ? ` (did you mean --email ${extra}?)` : ''
    throw new UsageError(`Unexpected argument '${extra}' after ${command}${hint}.`)
  }
  for (const name of ['times', 'status'] as const) {
    const value = values[name]
    if (value !== undefined && !/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number.`)
  }
  if (command === 'mailbox' && rest.length === 0) throw new UsageError('mailbox needs an address.')
  // An empty --email would read as "every account" in watch, and is refused by the server everywhere else.
  if (values.email !== undefined && values.email.trim() === '')
    throw new UsageError('--email is empty; give an address, or leave it out for every account.')
  if (command === 'watch' && values.since !== undefined) parseSince(values.since)
}
