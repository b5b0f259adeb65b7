// Real server processes on one PostgreSQL schema, for the cluster soak (docs/security/attack-suite.md, T18) and the
// balancer leg (harness/balancer-leg.ts): each on its own port, killed with SIGKILL and started again on that port.
// The database URL (password included) goes in DATABASE_URL, never on a command line (docs/mock-server.md, "Where
// the state lives").
import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter, once } from 'node:events'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/
/** How long a start may take on a loaded 2-core machine (tsx compiles main.ts on each start). */
const START_TIMEOUT_MS = 90_000
/** The last lines each instance wrote on stderr, kept for the report. */
const KEPT_LINES = 20
const RESTART_ATTEMPTS = 5

/** How an instance is started: through tsx from the sources, or the compiled server (`npm run mock`'s build). */
export type ServerCommand = 'tsx' | 'built'

export interface Instance {
  index: number
  port: number
  up: boolean
  child: ChildProcess | null
  /** The last lines it wrote on stderr (all its lives). */
  errors: string[]
}

const commandLine = (command: ServerCommand): string[] =>
  command === 'tsx'
    ? ['--import', 'tsx', 'mock-server/src/main.ts']
    : [fileURLToPath(new URL('../mock-server/start.mjs', import.meta.url))]

/** Starts one server on `port` (0: any) and resolves with its port once it listens; rejects when it stops first. */
async function startServer(instance: Instance, port: number, options: ClusterOptions): Promise<number> {
  const args = [
    ...commandLine(options.command),
    ...['--port', String(port), '--web', 'none', '--quiet'],
    ...(options.args ?? []),
  ]
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      MOCK_CONTROL_TOKEN: options.controlToken,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  instance.child = child
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) instance.errors.push(line)
    instance.errors.splice(0, Math.max(0, instance.errors.length - KEPT_LINES))
  }
  child.stderr.on('data', keep)
  return new Promise<number>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`Instance ${instance.index} did not start in time.`)),
      START_TIMEOUT_MS,
    )
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = LISTENING.exec(output)
      if (!match) return
      clearTimeout(timer)
      output = ''
      resolve(Number(match[1]))
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(
        new Error(
          `Instance ${instance.index} stopped (exit ${code}) before it listened: ${instance.errors.at(-1) ?? ''}`,
        ),
      )
    })
  })
}

export interface ClusterOptions {
  count: number
  databaseUrl: string
  controlToken: string
  command: ServerCommand
  /** More flags for every instance, such as `--trust-proxy 1` behind a balancer. */
  args?: string[]
}

/**
 * @example
 * const cluster = createCluster({ count: 3, databaseUrl, controlToken, command: 'tsx' })
 * await cluster.start()
 * const port = await cluster.pick() // a live instance's port
 * await cluster.killAndRestart(1)
 */
export function createCluster(options: ClusterOptions) {
  const events = new EventEmitter()
  events.setMaxListeners(0)
  const instances: Instance[] = Array.from({ length: options.count }, (_, index) => ({
    index,
    port: 0,
    up: false,
    child: null,
    errors: [],
  }))
  const live = () => instances.filter((instance) => instance.up)
  const bringUp = async (instance: Instance) => {
    instance.port = await startServer(instance, instance.port, options)
    instance.up = true
    events.emit('up')
  }
  const kill = async (instance: Instance) => {
    instance.up = false
    const child = instance.child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
  }
  return {
    instances,
    /** The first instance claims the empty schema (secret, migrations); the others then start side by side. */
    async start(): Promise<void> {
      await bringUp(instances[0]!)
      await Promise.all(instances.slice(1).map(bringUp))
    },
    /** A random live instance's port, other than `avoid` when another is live; waits while none is. */
    async pick(avoid?: number): Promise<number> {
      for (;;) {
        const candidates = live()
        const others = candidates.filter((instance) => instance.port !== avoid)
        const from = others.length > 0 ? others : candidates
        if (from.length > 0) return from[Math.floor(Math.random() * from.length)]!.port
        await once(events, 'up')
      }
    },
    livePorts: () => live().map((instance) => instance.port),
    /** SIGKILL, then the same port again. */
    async killAndRestart(index: number): Promise<void> {
      const instance = instances[index]!
      await kill(instance)
      // The port can be taken for a moment by a connection of the killed process's last breath: tried again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await bringUp(instance)
        } catch (error) {
          if (attempt === RESTART_ATTEMPTS) throw error
        }
      }
    },
    async killAll(): Promise<void> {
      await Promise.all(instances.map(kill))
    },
  }
}

export type Cluster = ReturnType<typeof createCluster>
