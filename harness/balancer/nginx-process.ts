// A private nginx in front of some ports, configured as harness/balancer/auth-shell.nginx.conf says: the balancer leg
// (harness/balancer-leg.ts) and the configuration's own tests (next-upstream.test.ts) start it alike.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { nginxConfig, NGINX_TEMPLATE } from './config.ts'

/** How long nginx may take to answer its first call through to an instance, on a loaded machine. */
const BALANCER_READY_MS = 30_000

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * nginx run from `binary` with the tested configuration in front of `ports`, its files in `dir`; resolves once a call
 * of /healthz through it answers 200.
 */
export async function startNginx(binary: string, dir: string, ports: number[]) {
  const listen = await freePort()
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, nginxConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), dir, listen, ports))
  const check = spawnSync(binary, ['-t', '-q', '-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
    encoding: 'utf8',
  })
  if (check.status !== 0)
    throw new Error(`Failed to start nginx: its configuration test said ${check.stderr}`)
  const child = spawn(binary, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdio: 'inherit' })
  const origin = `http://127.0.0.1:${listen}`
  const deadline = Date.now() + BALANCER_READY_MS
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Failed to start nginx: it exited with ${child.exitCode}.`)
    const ready = await fetch(`${origin}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ready) return { child, origin }
    if (Date.now() > deadline) throw new Error(`Failed to start nginx: ${origin}/healthz did not answer 200.`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
