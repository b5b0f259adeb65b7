/**
 * QA's command line for the mock server: arm scenarios, move the clock, read the mailbox and the
 * journal. `npm run scenario -- --help` lists the commands.
 */
import { runScenarioCommand } from './lib/scenario-cli.ts'

const baseUrl = process.env.MOCK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 4010}`
process.exitCode = await runScenarioCommand(process.argv.slice(2), {
  fetch,
  baseUrl,
  ...(process.env.MOCK_CONTROL_TOKEN && { controlToken: process.env.MOCK_CONTROL_TOKEN }),
  print: (line) => console.log(line),
})
