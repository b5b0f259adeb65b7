/**
 * QA's command line for the mock server: arm scenarios, move the clock, read the mailbox, read or watch the
 * journal. `npm run scenario -- --help` lists the commands. Colours only when stdout is a terminal (NO_COLOR and
 * FORCE_COLOR are honoured); Ctrl-C ends `watch` with exit code 0; no error ends in a stack trace.
 */
import { runScenarioCommand } from './scenario-cli.ts'
import { createStyle } from './terminal-style.ts'

// stdout closed by its reader (`... | head`): the reader has what it wanted, so exit 0 quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  console.error(`Failed to write the output: ${error.message}`)
  process.exit(1)
})
const baseUrl = process.env.MOCK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 4010}`
const stopped = new AbortController()
// Once: a second Ctrl-C ends the process the usual way, should the first not.
process.once('SIGINT', () => stopped.abort())
try {
  process.exitCode = await runScenarioCommand(process.argv.slice(2), {
    fetch,
    baseUrl,
    ...(process.env.MOCK_CONTROL_TOKEN && { controlToken: process.env.MOCK_CONTROL_TOKEN }),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    style: createStyle({ env: process.env, isTTY: process.stdout.isTTY === true }),
    signal: stopped.signal,
  })
} catch (error) {
  console.error(`Failed to run the command: ${(error as Error).message}`)
  process.exitCode = 1
}
