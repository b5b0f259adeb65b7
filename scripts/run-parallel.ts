/**
 * Runs npm scripts side by side (RUN_PARALLEL_JOBS), started in the given order, and prints each one's output whole
 * as it ends, so lines never interleave; then each one's times, and the lines naming what failed.
 * Exits 1 when any script failed, after all have run.
 * `--favour <script>` runs that one at the normal priority and every other under `nice -n 10`: a leg whose every call
 * crosses several processes in turn waits for a core at each hop, and the busy vitest workers beside it would
 * otherwise stretch it into the longest part of the run (docs/decisions/025-ci-minutes.md).
 * `npm test` runs all its scripts with it (docs/contract-suite.md, "What `npm test` runs"):
 *   RUN_PARALLEL_JOBS=3 tsx scripts/run-parallel.ts --favour test:contracts:balancer test:contracts:balancer ...
 */
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { lowerSessionGroup } from '../harness/scheduler.ts'

type Result = { name: string; code: number; output: string; wallMs: number; cpuMs: number | null }

/** The scripts to run, in order, and those given with `--favour`. */
function readArguments(args: string[]): { names: string[]; favoured: Set<string> } {
  const names: string[] = []
  const favoured = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--favour') favoured.add(args[++i] ?? '')
    else names.push(args[i]!)
  }
  const stray = [...favoured].find((name) => !names.includes(name))
  const twice = names.find((name, index) => names.indexOf(name) !== index)
  const wrong =
    names.length === 0
      ? 'Usage: tsx scripts/run-parallel.ts [--favour <npm script>]... <npm script>...'
      : stray !== undefined
        ? `Failed to read the arguments: --favour ${JSON.stringify(stray)} names no script of the run.`
        : twice !== undefined
          ? `Failed to read the arguments: ${JSON.stringify(twice)} is named twice.`
          : null
  if (wrong !== null) {
    console.error(wrong)
    process.exit(2)
  }
  return { names, favoured }
}

/** RUN_PARALLEL_JOBS, a whole number from 1; unset, the machine's cores. */
function readJobs(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return availableParallelism()
  const jobs = Number(raw)
  if (Number.isSafeInteger(jobs) && jobs >= 1) return jobs
  console.error(`Failed to read RUN_PARALLEL_JOBS: ${JSON.stringify(raw)} is not a whole number from 1.`)
  process.exit(2)
}

const { names, favoured } = readArguments(process.argv.slice(2))
const jobs = readJobs(process.env.RUN_PARALLEL_JOBS)

/** Splits off the CPU time bash's `times` printed after the script (its children's user + sys), when it did. */
function parseTimes(output: string): { output: string; cpuMs: number | null } {
  const match = /\n?__times__\n(\S+)m([\d.]+)s (\S+)m([\d.]+)s\n(\S+)m([\d.]+)s (\S+)m([\d.]+)s\n?$/.exec(
    output,
  )
  if (!match) return { output, cpuMs: null }
  const [, ...parts] = match
  const values = parts.map(Number)
  // `times` prints the shell's own user/sys, then its children's: count the children's.
  const cpuMs = ((values[4]! + values[6]!) * 60 + values[5]! + values[7]!) * 1000
  return { output: output.slice(0, match.index), cpuMs }
}

/** A script still running: its name, its output so far, and a way to pass it a signal. */
interface Running {
  name: string
  output: () => string
  kill: (signal: NodeJS.Signals) => void
}

function run(name: string, running: Set<Running>): Promise<Result> {
  const started = Date.now()
  const niced = favoured.size > 0 && !favoured.has(name)
  const script = `npm run ${JSON.stringify(name)}; code=$?; printf '\\n__times__\\n'; times; exit $code`
  const command = niced ? ['nice', '-n', '10'] : []
  const [file, ...args] = [...command, 'bash', '-c', script]
  // A process group of its own, so a stop reaches the script's whole tree (bash, npm, vitest and its workers).
  const child = spawn(file!, args, {
    // RUN_PARALLEL_SESSION tells the script its session is its own, to lower for the scheduler as it sees fit.
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1', RUN_PARALLEL_SESSION: '1' },
    detached: true,
  })
  // The script leads a session of its own (detached) by the time spawn returns: a niced one lowers that session's
  // group as well, or the favoured script would share the cores equally with each of the others (harness/scheduler.ts).
  if (niced && child.pid !== undefined) lowerSessionGroup(child.pid)
  let raw = ''
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal)
    } catch {
      // already gone
    }
  }
  const self: Running = { name, output: () => raw, kill }
  running.add(self)
  child.on('close', () => running.delete(self))
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ name, code: 1, output: String(error), wallMs: 0, cpuMs: null }))
    child.on('close', (code) => {
      const { output, cpuMs } = parseTimes(raw)
      resolve({ name, code: code ?? 1, output, wallMs: Date.now() - started, cpuMs })
    })
  })
}

/** The lines of a script's output that name a failure (Vitest's, Playwright's, a thrown error), at most 40. */
function failureLines(output: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n')
  const marker =
    /^\s*(FAIL\b|×|✘|\d+\) |Error:|AssertionError|TypeError|Test Files .*failed|Tests .*failed|\d+ failed)/
  return plain.filter((line) => marker.test(line)).slice(0, 40)
}

function printBlock(result: Result): void {
  const cpu = result.cpuMs === null ? '' : `, ${(result.cpuMs / 1000).toFixed(1)} s CPU`
  const verdict = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`
  console.log(`\n── npm run ${result.name}: ${verdict} in ${(result.wallMs / 1000).toFixed(1)} s${cpu}`)
  process.stdout.write(result.output.trim() === '' ? '' : `${result.output.trimEnd()}\n`)
}

async function main(): Promise<number> {
  if (favoured.size > 0)
    console.log(`At the normal priority: ${[...favoured].join(', ')}; the other scripts under nice -n 10.`)
  const results: Result[] = []
  const running = new Set<Running>()
  // Stopped (a CI's time-out, Ctrl-C): what each running script printed so far is shown, or the one that hung
  // would leave no trace.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const one of running) {
        console.log(`\n── npm run ${one.name}: stopped by ${signal} while running; its output so far:`)
        process.stdout.write(one.output().trim() === '' ? '' : `${one.output().trimEnd()}\n`)
        one.kill(signal)
      }
      process.exit(signal === 'SIGINT' ? 130 : 143)
    })
  let next = 0
  // Each script's block is printed whole as soon as it ends, so a short check does not wait for a long leg.
  const worker = async (): Promise<void> => {
    for (let name = names[next++]; name !== undefined; name = names[next++]) {
      const result = await run(name, running)
      printBlock(result)
      results.push(result)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, names.length) }, worker))

  const failed = names.flatMap((name) => results.filter((r) => r.name === name && r.code !== 0))
  if (names.length > 1) {
    console.log('\n── times, in the given order:')
    for (const name of names) {
      const result = results.find((r) => r.name === name)!
      const cpu = result.cpuMs === null ? '' : `, ${(result.cpuMs / 1000).toFixed(1)} s CPU`
      console.log(
        `${result.code === 0 ? 'ok    ' : 'FAILED'} ${name}: ${(result.wallMs / 1000).toFixed(1)} s${cpu}`,
      )
    }
  }
  // CI keeps only the end of a long log: say again, last, which tests failed in each failed script.
  for (const result of failed) {
    const lines = failureLines(result.output)
    if (lines.length > 0) console.error(`\n── what failed in npm run ${result.name}:\n${lines.join('\n')}`)
  }
  if (failed.length > 0) console.error(`\nFailed: ${failed.map((r) => `npm run ${r.name}`).join(', ')}`)
  return failed.length > 0 ? 1 : 0
}

process.exitCode = await main()
