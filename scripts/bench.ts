/**
 * Benchmarks, printed side by side in one run (never timed assertions in tests):
 * 1. password hashing: argon2id at OWASP's parameters (what the mock server uses) against Node's
 *    scrypt at N=2^17, r=8, p=1 (the reference ADR 003 compares with), median of several hashes each;
 * 2. the cost of one request: the core's dispatch alone, against the same call through the Express
 *    host over loopback HTTP;
 * 3. the initial JavaScript of /login (what index.html loads before any lazy chunk), raw and gzip,
 *    beside the largest lazy chunks, from a fresh production build.
 * `npm run bench`.
 */
import { execFileSync } from 'node:child_process'
import { scrypt } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { hash } from '@node-rs/argon2'
import { createApp } from '../mock-server/src/app.ts'
import { ARGON2_PARAMS } from '../mock-server/src/constants.ts'
import { bodyFrom } from '../mock-server/src/http/raw.ts'

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  length: number,
  options: object,
) => Promise<Buffer>

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function time(runs: number, task: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = []
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now()
    await task()
    samples.push(performance.now() - started)
  }
  return samples
}

function row(label: string, samples: number[], unit: 'ms' | 'µs'): string {
  const scale = unit === 'µs' ? 1000 : 1
  const format = (value: number) => (value * scale).toFixed(unit === 'µs' ? 0 : 1).padStart(8)
  return `${label.padEnd(46)} median ${format(median(samples))} ${unit}   min ${format(Math.min(...samples))} ${unit}   n=${samples.length}`
}

async function benchHashing(): Promise<string[]> {
  const argon = await time(10, () => hash('correct horse battery staple', { ...ARGON2_PARAMS, algorithm: 2 }))
  const scryptSamples = await time(5, () =>
    scryptAsync('correct horse battery staple', 'salt-salt-salt-1', 64, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    }),
  )
  return [
    row('argon2id m=19MiB t=2 p=1 (@node-rs/argon2)', argon, 'ms'),
    row('scrypt N=2^17 r=8 p=1 (node:crypto)', scryptSamples, 'ms'),
  ]
}

async function benchRequests(): Promise<string[]> {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  const raw = {
    method: 'GET',
    url: '/api/_auth/session',
    headers: {},
    readBody: bodyFrom(undefined),
    ip: '127.0.0.1',
    secure: false,
    origin: 'http://x',
  }
  const dispatch = await time(2000, () => app.core.dispatch(raw))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/_auth/session`
  await time(200, () => fetch(url).then((response) => response.text()))
  const http = await time(2000, () => fetch(url).then((response) => response.text()))
  server.close()
  return [
    row('GET /api/_auth/session: core dispatch only', dispatch, 'µs'),
    row('GET /api/_auth/session: Express over loopback', http, 'µs'),
  ]
}

function benchBundle(): string[] {
  const root = fileURLToPath(new URL('..', import.meta.url))
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'ignore' })
  const dist = `${root}web/dist/`
  const html = readFileSync(`${dist}index.html`, 'utf8')
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!)
  const size = (file: string) => {
    const bytes = readFileSync(`${dist}${file}`)
    return { raw: bytes.length, gzip: gzipSync(bytes).length }
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2).padStart(8)} kB`
  const lines = initial.map((file) => {
    const { raw, gzip } = size(file)
    return `${file.padEnd(46)} ${kb(raw)}  gzip ${kb(gzip)}  (initial)`
  })
  const total = initial
    .map(size)
    .reduce((sum, one) => ({ raw: sum.raw + one.raw, gzip: sum.gzip + one.gzip }), { raw: 0, gzip: 0 })
  lines.push(`${'initial JavaScript of /login, total'.padEnd(46)} ${kb(total.raw)}  gzip ${kb(total.gzip)}`)
  const lazy = readdirSync(`${dist}assets`)
    .filter((file) => file.endsWith('.js') && !initial.includes(`assets/${file}`))
    .map((file) => ({ file: `assets/${file}`, ...size(`assets/${file}`) }))
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 5)
  for (const chunk of lazy)
    lines.push(`${chunk.file.padEnd(46)} ${kb(chunk.raw)}  gzip ${kb(chunk.gzip)}  (lazy)`)
  return lines
}

console.log(`Node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`)
console.log('Password hashing (one hash):')
for (const line of await benchHashing()) console.log(`  ${line}`)
console.log('\nOne request, wall time per call (client included for HTTP):')
for (const line of await benchRequests()) console.log(`  ${line}`)
console.log('\nBundle (fresh production build):')
for (const line of benchBundle()) console.log(`  ${line}`)
