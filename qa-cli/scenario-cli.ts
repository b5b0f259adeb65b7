// The QA command line over /__mock, with fetch and output injected so it tests without a process.
// People get tables; `--json` gives scripts the server's answers. Errors are one line, never a stack trace.
import { parseDuration } from '#api/control-values.ts'
import { createMockClient, MockClientError, type ArmRequest } from '#api/mock-client.ts'
import {
  ARGUMENTS,
  checkArguments,
  checkServerUrl,
  parse,
  SCENARIO_HELP,
  UsageError,
  type Values,
} from './scenario-cli-args.ts'
import { formatJournal, formatJournalEntry, formatMailbox } from './journal-format.ts'
import { watchJournal } from './journal-watch.ts'
import { formatArmed, formatCleared, formatClock, formatReset, formatScenarios } from './scenario-format.ts'
import { PLAIN, type Style } from './terminal-style.ts'

export { SCENARIO_HELP }

export interface CliIo {
  fetch: typeof fetch
  baseUrl: string
  /** The server's control token (MOCK_CONTROL_TOKEN), sent with every call when set. */
  controlToken?: string
  print(line: string): void
  /** Errors and watch's notices (stderr); `print` when not given. */
  printError?(line: string): void
  /** How human output is painted (default PLAIN: no colours). */
  style?: Style
  /** Ctrl-C (qa-cli/scenario.ts aborts it): ends `watch` (exit 0), or a call in flight (exit 130). */
  signal?: AbortSignal
  /** How often `watch` asks, and asks again after a failure (default 500 ms and 1 s). */
  pollMs?: number
  retryMs?: number
}

/** Runs one command; returns the process exit code (0 ok, 1 refused or unreachable, 2 usage). */
export async function runScenarioCommand(argv: string[], io: CliIo): Promise<number> {
  const printError = io.printError ?? io.print
  const json = argv.includes('--json')
  const usage = (message: string) => {
    if (json) io.print(`${message}\n\n${SCENARIO_HELP}`)
    else printError(`${message} Run npm run scenario -- --help for the commands.`)
    return 2
  }
  let parsed
  try {
    parsed = parse(argv)
  } catch (error) {
    // Node's message goes on about positionals after '--': the first sentence says what is wrong.
    return usage((error as Error).message.replace(/^(Unknown option '[^']*'\.).*$/s, '$1'))
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (values.help || !command) {
    io.print(SCENARIO_HELP)
    return values.help ? 0 : 2
  }
  const base = (values.url ?? io.baseUrl).replace(/\/$/, '')
  try {
    checkServerUrl(base)
    checkArguments(command, rest, values)
    return await runCommand(command, rest[0], values, { ...io, printError, baseUrl: base })
  } catch (error) {
    if (io.signal?.aborted) return 130 // Ctrl-C during a one-shot command: the shell's code for SIGINT
    if (error instanceof UsageError || (error as Error).message.startsWith('Failed to read')) {
      return usage((error as Error).message)
    }
    if (error instanceof MockClientError) {
      if (json) io.print(error.body === undefined ? `${error.status}` : JSON.stringify(error.body, null, 2))
      else printError(describeRefusal(error, command))
      return 1
    }
    // With --json every message goes where it always went (stdout); for people, errors go to stderr.
    ;(json ? io.print : printError)(
      `Failed to reach the mock server at ${displayUrl(base)}: ${describeFailure(error)}. Is it running (npm run mock)?`,
    )
    return 1
  }
}

async function runCommand(
  command: string,
  argument: string | undefined,
  values: Values,
  io: CliIo & { printError(line: string): void },
): Promise<number> {
  const style = io.style ?? PLAIN
  const mock = createMockClient({
    baseUrl: io.baseUrl,
    // Ctrl-C (the signal) ends a call in flight too, so no command outlives it.
    fetch: (input) => io.fetch(input, io.signal && { signal: io.signal }),
    ...(io.controlToken && { controlToken: io.controlToken }),
  })
  /** Prints the answer: as JSON with --json, else as the lines `human` makes of it. */
  const show = async <T>(answer: Promise<T>, human: (value: T) => string | string[]): Promise<number> => {
    const value = await answer
    if (values.json) io.print(JSON.stringify(value, null, 2))
    else for (const line of [human(value)].flat()) io.print(line)
    return 0
  }
  switch (command) {
    case 'list':
      return show(mock.scenarios(), (list) => formatScenarios(list, style))
    case 'reset':
      return show(mock.reset(), formatReset)
    case 'clear':
      return show(mock.clearScenarios(values.email), ({ cleared }) => formatCleared(cleared, values.email))
    case 'mailbox':
      if (values.json)
        return show(
          mock.mailbox(argument).then((messages) => ({ messages })),
          () => [],
        )
      return show(Promise.all([mock.mailbox(argument), mock.clock()]), ([messages, clock]) =>
        formatMailbox(messages, argument!, clock.now, style),
      )
    case 'requests': {
      const filter = { email: values.email, since: values.since }
      return show(
        mock.journal(filter).then((requests) => ({ requests })),
        ({ requests }) => formatJournal(requests, filter, style),
      )
    }
    case 'clock':
      if (!argument) return show(mock.clock(), (clock) => formatClock(clock, style))
      return show(
        mock.setClock(
          argument.startsWith('+') ? { advance_ms: parseDuration(argument.slice(1)) } : { now: argument },
        ),
        (clock) => formatClock(clock, style, true),
      )
    case 'watch':
      return watch(mock, values, io, style)
    default:
      // QA's words go to the server as typed: the server, not this command line, says what it refuses.
      return show(mock.arm(toArmRequest(command, values)), (armed) => formatArmed(armed, style))
  }
}

function toArmRequest(name: string, values: Values): ArmRequest {
  return {
    name,
    ...(values.email !== undefined && { email: values.email }),
    ...(values.times !== undefined && { times: Number(values.times) }),
    ...(values['until-cleared'] && { until_cleared: true }),
    ...(values.operation !== undefined && { operation: values.operation }),
    ...(values.status !== undefined && { status: Number(values.status) }),
    ...(values.message !== undefined && { message: values.message }),
    ...(values.delay !== undefined && { delay_ms: parseDuration(values.delay) }),
  } as ArmRequest
}

async function watch(
  mock: ReturnType<typeof createMockClient>,
  values: Values,
  io: CliIo & { printError(line: string): void },
  style: Style,
): Promise<number> {
  await watchJournal(
    {
      read: (since) => mock.journal(since === undefined ? {} : { since: String(since) }),
      onEntry: (entry) => io.print(values.json ? JSON.stringify(entry) : formatJournalEntry(entry, style)),
      onNotice: (text) => io.printError(style.dim(text)),
      signal: io.signal ?? new AbortController().signal,
    },
    {
      email: values.email,
      since: values.since,
      pollMs: values.interval === undefined ? (io.pollMs ?? 500) : parseDuration(values.interval),
      retryMs: io.retryMs ?? 1000,
      server: displayUrl(io.baseUrl),
    },
  )
  return 0
}

/** What to say about a refusal, on one line, with what to do about it. */
function describeRefusal(error: MockClientError, command: string): string {
  const body = error.body as { message?: unknown } | undefined
  const message =
    typeof body === 'object' && typeof body?.message === 'string' ? body.message : `status ${error.status}`
  const hints: Record<string, string> = {
    control_token_required: ' Set MOCK_CONTROL_TOKEN to the token the server was started with.',
    host_not_allowed: ' Use the address it listens on, or start it with --allow-host <name>.',
    not_found: ' A --production server has no /__mock.',
    validation_failed:
      ARGUMENTS[command] === undefined
        ? ' npm run scenario -- list names the scenarios; --help lists the commands and options.'
        : '',
  }
  const code = error.code ? ` ${error.code}` : ''
  return `The mock server refused ${command} (${error.status}${code}): ${message}${hints[error.code ?? ''] ?? ''}`
}

/** fetch's own message ("fetch failed") with what its cause says (ECONNREFUSED, ENOTFOUND, "bad port"). */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  const message = (error as Error).message.replace(/\.$/, '')
  const reason = typeof cause?.code === 'string' ? cause.code : cause?.message
  return typeof reason === 'string' ? `${message} (${reason})` : message
}

/** The server's address without user info, for messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.href.replace(/\/$/, '')
  } catch {
    return url
  }
}
