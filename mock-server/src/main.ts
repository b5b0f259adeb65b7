// The only file that reads the environment and flags and calls listen(): `npm run mock -- --help`.
// The app is imported only once every flag is checked: importing it costs most of a start's CPU, which --help and
// a refused flag do not need (docs/decisions/015-suite-speed.md).
import type { Server } from 'node:http'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HELP, readFlags } from './cli/flags.ts'
import { bindsEveryInterface, urlHost } from './cli/cli-values.ts'
import { lifetimeNotes } from './cli/lifetimes.ts'
import { describeSmtp } from './cli/smtp-values.ts'
import type { GracefulShutdown } from './hosts/graceful-shutdown.ts'
import { BUILD_TIME } from './shared/build-time.ts'
import { SHUTDOWN_TIMEOUT_MS } from './shared/constants.ts'

async function main(): Promise<void> {
  const defaultWeb = fileURLToPath(new URL(BUILD_TIME?.webDist ?? '../../web/dist', import.meta.url))
  const flags = readFlags(defaultWeb)
  if (flags.help) {
    process.stdout.write(HELP)
    return
  }
  const { values, port, host, webRoot, trustProxyHops, controlToken, allowedHosts, corsOrigins } = flags
  const { publicOrigin, oidc, smtp, durations } = flags
  const log = values.quiet ? undefined : createLineWriter(process.stdout)
  const logError = (line: string) => console.error(`${new Date().toISOString()} ${line}`)
  if (values.replay !== undefined) {
    const common = {
      trustProxyHops,
      allowedHosts: [host, ...allowedHosts],
      controlToken,
      webRoot,
      log,
      logError,
    }
    return startReplay(values.replay, { port, host, ...common })
  }
  const state = await openState(flags, logError)
  if (flags.command === 'migrate') {
    const applied = state!.opened.applied
    console.log(applied.length ? `Applied migrations ${applied.join(', ')}.` : 'The database is current.')
    await state!.opened.close()
    return
  }
  const [{ createApp }, { createHttpServer }, { SEED_ACCOUNTS }, { createGracefulShutdown }] =
    await Promise.all([
      import('./app.ts'),
      import('./hosts/http-server.ts'),
      import('./product/domain/seed.ts'),
      import('./hosts/graceful-shutdown.ts'),
    ])
  const app = createApp({
    production: values.production === true,
    trustProxyHops,
    allowedHosts: [host, ...allowedHosts],
    ...(controlToken !== undefined && { controlToken }),
    ...(publicOrigin && { publicOrigin }),
    ...(oidc && { oidc }),
    ...durations,
    ...(state && { sql: { client: state.opened.client } }),
    ...(state?.importFile && { dataFile: state.importFile }),
    ...(state && { onShutdown: [{ name: 'store', close: state.opened.close }] }),
    ...(corsOrigins.length > 0 && { corsOrigins }),
    ...(values['mail-outbox'] && { mailOutbox: resolve(values['mail-outbox']) }),
    ...(smtp && { smtp }),
    ...(webRoot && { webRoot }),
    ...(log && { log }),
    logError,
  })
  app.core.ready.then(
    () => {
      const server = createHttpServer(app)
      stopOnListenError(server, host, port)
      server.listen(port, host, () => {
        const address = server.address()
        const actual = typeof address === 'object' && address ? address.port : port
        // At the default lifetimes the line stays as it always was (tests and scripts read it).
        const notes = [
          ...(values.production ? ['production mode: no /__mock'] : []),
          ...lifetimeNotes(durations),
        ]
        console.log(
          `Mock server listening on http://${urlHost(host)}:${actual}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
        )
        if (!values.production) warnIfOpen(address, controlToken)
        console.log(
          webRoot ? `Serving the web app from ${webRoot}` : 'API only (no built web app: npm run build)',
        )
        // The issuer and client id are not secret; the client secret is never printed.
        if (oidc) console.log(`External sign-in through ${oidc.issuer} as client ${oidc.clientId}.`)
        if (controlToken !== undefined)
          console.log('/__mock requires the control token (X-Mock-Control-Token header).')
        // Host, port and sender only: the SMTP credentials are never printed.
        if (smtp) console.log(describeSmtp(smtp))
        if (corsOrigins.length > 0) console.log(`Calls with credentials from: ${corsOrigins.join(', ')}`)
        console.log(state ? state.banner : memoryBanner(process.env.DATABASE_URL))
        if (!state && !values.production) {
          console.log(
            `Seeded accounts: ${SEED_ACCOUNTS.map((account) => `${account.email}${account.verified ? '' : ' (unverified)'}`).join(', ')} (passwords in the README)`,
          )
        }
      })
      stopOnSignals(
        createGracefulShutdown(server, {
          ...SHUTDOWN,
          beginShutdown: app.core.beginShutdown,
          close: app.core.close,
          inFlight: app.inFlight,
        }),
        log,
      )
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    },
  )
}

/**
 * Where a PostgreSQL URL leads, as node-postgres reads it (its query's host, port and database win over the URL's
 * own): host, port and database only, never the user or a password.
 */
function describeDatabase(database: string): string {
  const url = new URL(database)
  const query = url.searchParams
  const host = query.get('host') ?? decodeURIComponent(url.hostname)
  const port = query.get('port') ?? url.port
  const name = query.get('database') ?? decodeURIComponent(url.pathname.slice(1))
  return `${host}${port ? `:${port}` : ''}/${name}`
}

/** The memory store's start line; a blank DATABASE_URL is read as unset (as an env file leaves it), and said so. */
function memoryBanner(databaseUrl: string | undefined): string {
  const blank = databaseUrl !== undefined && databaseUrl.trim() === ''
  return `State in memory${blank ? ' (DATABASE_URL is blank, so unset)' : ''}: a restart starts it again.`
}

/** The SQL database --data or --database names, opened and migrated; null for the memory store. */
async function openState(
  flags: Extract<ReturnType<typeof readFlags>, { help: false }>,
  onError: (line: string) => void,
) {
  const { database, values } = flags
  if (!database && values.data === undefined) return null
  const { openSqlState, resolveDataPath } = await import('./compose/sql-state.ts')
  if (database) {
    const opened = await openSqlState({ database }, onError)
    return { opened, banner: `State in PostgreSQL at ${describeDatabase(database)}.` }
  }
  const { dataDir, importFile } = resolveDataPath(resolve(values.data!))
  const opened = await openSqlState({ dataDir }, onError, () => {
    // Frozen past its lock's marks (a paused container), this server was replaced: two writers would break the store.
    console.error(`Stopped: another server has taken over ${dataDir}; this one must not write beside it.`)
    process.exit(1)
  })
  return { opened, importFile, banner: `State in ${dataDir} (embedded PostgreSQL, one server).` }
}

interface ReplayStart {
  port: number
  host: string
  trustProxyHops: number
  allowedHosts: string[]
  controlToken: string | undefined
  webRoot: string | undefined
  log: (((line: string) => void) & { flush(): void }) | undefined
  logError: (line: string) => void
}

/** `--replay <file>`: the file is read and checked before the app is imported (a refusal exits 2, below). */
async function startReplay(file: string, options: ReplayStart): Promise<void> {
  const { port, host, controlToken, webRoot, log } = options
  const { readHarFile } = await import('./har/har-file.ts')
  const har = readHarFile(file)
  const [{ createReplayApp }, { createHttpServer }, { createGracefulShutdown }] = await Promise.all([
    import('./app.ts'),
    import('./hosts/http-server.ts'),
    import('./hosts/graceful-shutdown.ts'),
  ])
  const app = createReplayApp({
    har,
    trustProxyHops: options.trustProxyHops,
    allowedHosts: options.allowedHosts,
    ...(controlToken !== undefined && { controlToken }),
    ...(webRoot && { webRoot }),
    ...(log && { log }),
    logError: options.logError,
  })
  const server = createHttpServer(app)
  stopOnListenError(server, host, port)
  server.listen(port, host, () => {
    const address = server.address()
    const actual = typeof address === 'object' && address ? address.port : port
    console.log(
      `Mock server listening on http://${urlHost(host)}:${actual} (replaying ${har.calls.length} recorded API calls of ${file}; ${har.ignored} other entries left out)`,
    )
    console.log(
      webRoot ? `Serving the web app from ${webRoot}` : 'API only (no built web app: npm run build)',
    )
    if (controlToken !== undefined)
      console.log('/__mock requires the control token (X-Mock-Control-Token header).')
    warnIfOpen(address, controlToken)
    console.log('State in memory: the recorded calls, and the journal of this run.')
  })
  const plan = {
    ...SHUTDOWN,
    beginShutdown: app.beginShutdown,
    close: async () => undefined,
    inFlight: app.inFlight,
  }
  stopOnSignals(createGracefulShutdown(server, plan), log)
}

/** /__mock on every interface with no token: anyone on the network can drive it, which the start says. */
function warnIfOpen(address: ReturnType<Server['address']>, controlToken: string | undefined): void {
  if (typeof address !== 'object' || !address || controlToken !== undefined) return
  if (bindsEveryInterface(address.address))
    console.log(
      'Listening on every interface without a control token: anyone who reaches this port can drive /__mock (set MOCK_CONTROL_TOKEN).',
    )
}

/** How a stop goes (hosts/graceful-shutdown.ts): its limit, and its lines on stdout beside the start's. */
const SHUTDOWN = { timeoutMs: SHUTDOWN_TIMEOUT_MS, print: (line: string) => console.log(line) }

/**
 * SIGTERM (an orchestrator, `docker stop`) and SIGINT (Ctrl-C) stop the server gracefully; a second one cuts the
 * requests in flight off. The request log is written out before the last line.
 */
function stopOnSignals(shutdown: GracefulShutdown, log: { flush(): void } | undefined): void {
  const stop = (signal: NodeJS.Signals) =>
    void shutdown.stop(signal).then((code) => {
      log?.flush()
      console.log('Mock server stopped.')
      process.exit(code)
    })
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/** The request log: lines of one event-loop turn go out in one write, since each write is a system call. */
function createLineWriter(stream: NodeJS.WriteStream): ((line: string) => void) & { flush(): void } {
  let pending = ''
  const flush = () => {
    if (pending === '') return
    const text = pending
    pending = ''
    stream.write(text)
  }
  const write = (line: string) => {
    if (pending === '') setImmediate(flush)
    pending += `${new Date().toISOString()} ${line}\n`
  }
  return Object.assign(write, { flush })
}

// A flag refused, or the app failing to assemble, stops with 2; a store that fails to load stops with 1 (above).
main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(2)
})

/** A port in use or a host that is not this machine's stops the start with one line (exit 2), not a stack trace. */
function stopOnListenError(server: Server, host: string, port: number): void {
  server.once('error', (error: NodeJS.ErrnoException) => {
    const why =
      error.code === 'EADDRINUSE'
        ? `port ${port} on ${host} is in use: stop what holds it, or pick another port (PORT or --port).`
        : error.code === 'EACCES'
          ? `no permission to listen on port ${port}: pick a port above 1023 (PORT or --port).`
          : `cannot listen on ${host}:${port} (${error.code ?? error.message}): give a host name of this machine (HOST).`
    console.error(`Failed to start: ${why}`)
    process.exit(2)
  })
}
