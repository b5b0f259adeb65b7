/**
 * `npm run lighthouse`: Lighthouse medians for /login and / beside the budgets (docs/decisions/012-first-load.md).
 * A bare React app (scripts/bench-bundle.ts) runs alternately with the app, so machine load falls on both alike.
 * Lighthouse is installed on first run into node_modules/.cache/lighthouse. Not part of `npm test`.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { AddressInfo } from 'node:net'
import { buildBare, serve } from './bench-bundle.ts'
import { CHROMIUM_ARGS, ensureChromium } from '#harness/chromium.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const cache = join(root, 'node_modules/.cache/lighthouse')
const cli = join(cache, 'node_modules/lighthouse/cli/index.js')
const version = process.env.LIGHTHOUSE_VERSION ?? '12'
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS]

interface Metric {
  label: string
  budget: string
  /** The value read from a report, in the unit printed. */
  read: (report: Report) => number
  format: (value: number) => string
  meets: (value: number) => boolean
}

interface Report {
  categories: Record<string, { score: number | null }>
  audits: Record<string, { numericValue?: number }>
  /** Set when Lighthouse itself failed to measure the page (NO_NAVSTART, NO_FCP and the like): no figures. */
  runtimeError?: { code: string; message: string }
}

/** Attempts per run: a run Lighthouse itself failed to record (runtimeError) is made again, up to this many times. */
const ATTEMPTS = 3

const score = (id: string) => (report: Report) => Math.round((report.categories[id]?.score ?? 0) * 100)
const audit = (id: string) => (report: Report) => report.audits[id]?.numericValue ?? NaN
const ms = (value: number) => `${Math.round(value)} ms`

const METRICS: Metric[] = [
  { label: 'performance', budget: '100', read: score('performance'), format: String, meets: (v) => v >= 100 },
  {
    label: 'accessibility',
    budget: '100',
    read: score('accessibility'),
    format: String,
    meets: (v) => v >= 100,
  },
  {
    label: 'best practices',
    budget: '100',
    read: score('best-practices'),
    format: String,
    meets: (v) => v >= 100,
  },
  { label: 'SEO', budget: '100', read: score('seo'), format: String, meets: (v) => v >= 100 },
  {
    label: 'LCP',
    budget: '<= 1500 ms',
    read: audit('largest-contentful-paint'),
    format: ms,
    meets: (v) => v <= 1500,
  },
  { label: 'FCP', budget: '', read: audit('first-contentful-paint'), format: ms, meets: () => true },
  { label: 'TBT', budget: '<= 50 ms', read: audit('total-blocking-time'), format: ms, meets: (v) => v <= 50 },
  {
    label: 'CLS',
    budget: '',
    read: audit('cumulative-layout-shift'),
    format: (v) => v.toFixed(3),
    meets: () => true,
  },
  {
    label: 'transfer',
    budget: '<= 150 KB',
    read: audit('total-byte-weight'),
    format: (v) => `${(v / 1000).toFixed(1)} KB`,
    meets: (v) => v <= 150_000,
  },
]

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function ensureLighthouse(): void {
  if (existsSync(cli)) return
  console.log(`Installing lighthouse@${version} into ${cache} (first run only)...`)
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, `lighthouse@${version}`],
    { stdio: 'inherit' },
  )
}

/** The mock server as `npm start` runs it (`npm run mock`), on a free port; resolves to its origin. */
function startServer(): Promise<{ origin: string; server: ChildProcess }> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'mock-server/src/main.ts', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let output = ''
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve({ origin: match[1]!, server })
    })
    server.on('exit', (code) => reject(new Error(`Failed to start the mock server: it exited with ${code}.`)))
  })
}

/**
 * One Lighthouse run of `url`; a run that Lighthouse failed to record (about one in ten on `/` here: NO_NAVSTART, its
 * trace missing the navigation) is made again, saying so, rather than counted as a page with no figures.
 */
async function runLighthouse(url: string, chromium: string): Promise<Report> {
  for (let attempt = 1; ; attempt += 1) {
    const report = await runLighthouseOnce(url, chromium)
    if (!report.runtimeError) return report
    const reason = `${report.runtimeError.code}: ${report.runtimeError.message}`
    if (attempt >= ATTEMPTS)
      throw new Error(`Lighthouse failed on ${url} ${ATTEMPTS} times in a row (${reason}).`)
    console.log(`Lighthouse failed to record ${url} (${reason}); running it again.`)
  }
}

async function runLighthouseOnce(url: string, chromium: string): Promise<Report> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      cli,
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      '--only-categories=performance,accessibility,best-practices,seo',
    ],
    { env: { ...process.env, CHROME_PATH: chromium }, maxBuffer: 256 * 1024 * 1024 },
  )
  return JSON.parse(stdout) as Report
}

/** The ratio of the app's figure to the bare app's, for the figures measured in time or bytes. */
function ratio(metric: Metric, app: number, bare: number): string {
  if (metric.budget.startsWith('100') || metric.label === 'CLS' || !(bare > 0)) return ''
  return `${(app / bare).toFixed(2)}x`
}

async function main(): Promise<void> {
  const chromium = ensureChromium('full')
  ensureLighthouse()
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const bareServer = await serve(await buildBare(), { compress: true })
  const bareOrigin = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`
  const { origin, server } = await startServer()
  try {
    for (const path of ['/login', '/']) {
      const reports: Report[] = []
      const bareReports: Report[] = []
      for (let run = 0; run < runs; run += 1) {
        reports.push(await runLighthouse(`${origin}${path}`, chromium))
        bareReports.push(await runLighthouse(`${bareOrigin}${path}`, chromium))
      }
      console.log(`\nLighthouse ${version} mobile (simulated throttling), ${path}, median of ${runs} runs`)
      console.log(
        `  ${''.padEnd(15)} ${'app'.padStart(10)}   ${'budget'.padEnd(17)} ${''.padEnd(8)} ${'bare app'.padStart(10)}  ${'ratio'.padEnd(6)} app runs`,
      )
      for (const metric of METRICS) {
        const values = reports.map(metric.read)
        const value = median(values)
        const bare = median(bareReports.map(metric.read))
        const verdict = metric.budget === '' ? '' : metric.meets(value) ? 'met' : 'NOT met'
        console.log(
          `  ${metric.label.padEnd(15)} ${metric.format(value).padStart(10)}   ${metric.budget.padEnd(17)} ${verdict.padEnd(8)} ${metric.format(bare).padStart(10)}  ${ratio(metric, value, bare).padEnd(6)} ${values.map(metric.format).join(', ')}`,
        )
      }
    }
  } finally {
    server.kill()
    bareServer.close()
  }
}

await main()
