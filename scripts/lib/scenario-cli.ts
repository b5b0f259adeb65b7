// The QA command line over the mock server's /__mock surface, as a function with fetch and output
// injected (scripts/scenario.ts wires it to the process). Every answer is printed readably.
import { parseArgs } from 'node:util'
import { parseDuration } from '../../mock-server/src/duration.ts'
import { createMockClient, MockClientError, type ArmRequest } from '../../contracts/support/mock-client.ts'

export const SCENARIO_HELP = `Usage: npm run scenario -- <command> [options]

Drives a running mock server (default http://127.0.0.1:$PORT or :4010; --url or MOCK_URL to change).
When the server has a control token, set MOCK_CONTROL_TOKEN to it: every call sends it.

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
  reset                         Back to the seed state.
  --help                        This text.
`

export interface CliIo {
  fetch: typeof fetch
  baseUrl: string
  /** The server's control token (MOCK_CONTROL_TOKEN), sent with every call when set. */
  controlToken?: string
  print(line: string): void
}

/** Runs one command; returns the process exit code (0 ok, 1 refused by the server, 2 usage). */
export async function runScenarioCommand(argv: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        times: { type: 'string' },
        'until-cleared': { type: 'boolean' },
        operation: { type: 'string' },
        status: { type: 'string' },
        message: { type: 'string' },
        delay: { type: 'string' },
        since: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean' },
      },
    })
  } catch (error) {
    io.print(`${(error as Error).message}\n\n${SCENARIO_HELP}`)
    return 2
  }
  const { values, positionals } = parsed
  const [command, argument] = positionals
  if (values.help || !command) {
    io.print(SCENARIO_HELP)
    return values.help ? 0 : 2
  }
  const base = (values.url ?? io.baseUrl).replace(/\/$/, '')
  const mock = createMockClient({
    baseUrl: base,
    fetch: (input) => io.fetch(input),
    ...(io.controlToken && { controlToken: io.controlToken }),
  })
  /** Prints the answer, refused or not, as the server gave it. */
  const print = async (answer: Promise<unknown>): Promise<number> => {
    try {
      io.print(JSON.stringify(await answer, null, 2))
      return 0
    } catch (error) {
      if (!(error instanceof MockClientError)) throw error
      io.print(error.body === undefined ? `${error.status}` : JSON.stringify(error.body, null, 2))
      return 1
    }
  }
  try {
    switch (command) {
      case 'list':
        return await print(mock.scenarios())
      case 'reset':
        return await print(mock.reset())
      case 'clear':
        return await print(mock.clearScenarios(values.email))
      case 'mailbox':
        if (!argument) throw new UsageError('mailbox needs an address.')
        return await print(mock.mailbox(argument).then((messages) => ({ messages })))
      case 'requests':
        return await print(
          mock.journal({ email: values.email, since: values.since }).then((requests) => ({ requests })),
        )
      case 'clock':
        if (!argument) return await print(mock.clock())
        if (argument.startsWith('+'))
          return await print(mock.setClock({ advance_ms: parseDuration(argument.slice(1)) }))
        return await print(mock.setClock({ now: argument }))
      default:
        // QA's words go to the server as typed: the server, not this command line, says what it refuses.
        return await print(
          mock.arm({
            name: command,
            ...(values.email !== undefined && { email: values.email }),
            ...(values.times !== undefined && { times: Number(values.times) }),
            ...(values['until-cleared'] && { until_cleared: true }),
            ...(values.operation !== undefined && { operation: values.operation }),
            ...(values.status !== undefined && { status: Number(values.status) }),
            ...(values.message !== undefined && { message: values.message }),
            ...(values.delay !== undefined && { delay_ms: parseDuration(values.delay) }),
          } as ArmRequest),
        )
    }
  } catch (error) {
    if (error instanceof UsageError || (error as Error).message.startsWith('Failed to read duration')) {
      io.print(`${(error as Error).message}\n\n${SCENARIO_HELP}`)
      return 2
    }
    io.print(
      `Failed to reach the mock server at ${base}: ${(error as Error).message}. Is it running (npm run mock)?`,
    )
    return 1
  }
}

class UsageError extends Error {}
