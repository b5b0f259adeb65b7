// How the server stops on SIGTERM or SIGINT (main.ts; docs/mock-server.md, Stopping): readiness turns 503, the
// listener closes (new connections are refused), idle keep-alive connections close, the requests in flight finish
// and their connections close behind them; then what must be written is written. A request that outlives the
// timeout is cut off, and the exit code says so.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import type { InFlight } from './in-flight.ts'

export interface ShutdownPlan {
  /** How long the requests in flight may take, and then how long closing may take (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number
  /** Called first: readiness answers 503 from now on (core.ts `beginShutdown`). */
  beginShutdown?: () => void
  /** Called once no request is in flight, or the time is up: the flush and the shutdown hooks (core.ts `close`). */
  close(): Promise<void>
  /**
   * The calls the host still works on (hosts/in-flight.ts): a call whose client gave up has closed its response,
   * but its handler may still write to the store, so the stop waits for it too.
   */
  inFlight?: Pick<InFlight, 'size' | 'idle'>
  /** One line each step (stdout in main.ts). */
  print(line: string): void
}

export interface GracefulShutdown {
  /**
   * Starts stopping and resolves with the exit code: 0 when every request finished and everything closed, 1 when a
   * request was cut off or closing failed. A second call (a second Ctrl-C) cuts the requests in flight off at once.
   */
  stop(signal: string): Promise<number>
}

/**
 * @example
 * const shutdown = createGracefulShutdown(server, { timeoutMs: 10_000, close: () => app.core.close(), print: console.log })
 * process.on('SIGTERM', () => void shutdown.stop('SIGTERM').then((code) => process.exit(code)))
 */
export function createGracefulShutdown(server: Server, plan: ShutdownPlan): GracefulShutdown {
  /** Each connection's responses not yet finished, oldest first (more than one when its client pipelines). */
  const queues = new Map<Socket, ServerResponse[]>()
  /** How many responses are not yet finished, on every connection. */
  const unfinished = () => [...queues.values()].reduce((count, queue) => count + queue.length, 0)
  /** The responses this stop told to close their connection, and only those: a client's own close stays. */
  const closedByStop = new WeakSet<ServerResponse>()
  /**
   * While stopping, only a connection's last response closes it: Node ends a connection after a response that says
   * close, and an answer queued behind that one was never sent, though its handler had run. Only the response that
   * has the connection may say so: one queued behind it fixes its headers as soon as its handler ends, and a request
   * pipelined after that would run unanswered. A queued one is told when it takes the connection (below); one that
   * ended before then leaves its connection idle once written, and closed as such.
   */
  const closeAfterLast = (queue: ServerResponse[]) =>
    queue.forEach((response, index) => {
      if (response.headersSent) return
      if (index === queue.length - 1 && response.socket) {
        if (!response.shouldKeepAlive) return
        response.shouldKeepAlive = false
        closedByStop.add(response)
      } else if (closedByStop.delete(response)) response.shouldKeepAlive = true
    })
  /** Every open connection, to close those with no answer under way (closeIdle). */
  const connections = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })
  /**
   * Closes each connection with no answer under way or queued. Not Node's closeIdleConnections: it counts a connection
   * idle once its current response has ended, though the body may still be going out to a slow reader (cut short,
   * and the stop exited 0) and answers pipelined behind it wait (never sent, though their handlers ran). A response
   * closes once its last byte is with the system, which still sends it.
   */
  const closeIdle = () => {
    for (const socket of connections) if (!queues.has(socket)) socket.destroy()
  }
  let stopping: Promise<number> | null = null
  let cutOff: (() => void) | null = null
  let lastAnswered: (() => void) | null = null
  const track = (request: IncomingMessage, response: ServerResponse) => {
    const queue = queues.get(request.socket) ?? []
    queues.set(request.socket, [...queue, response])
    // A request that arrives on a connection still open while stopping is answered, then its connection closes.
    if (stopping) closeAfterLast(queues.get(request.socket)!)
    response.once('close', () => {
      const left = (queues.get(request.socket) ?? []).filter((one) => one !== response)
      if (left.length > 0) queues.set(request.socket, left)
      else queues.delete(request.socket)
      if (!stopping) return
      // The next response has taken the connection (Node hands it over as this one finishes).
      if (left.length > 0) closeAfterLast(left)
      closeIdle()
      if (unfinished() === 0) lastAnswered?.()
    })
  }
  // Before the server's own handler, which may answer at once: a response's Connection header is fixed once it ends.
  server.prependListener('request', track)
  server.prependListener('checkContinue', track)
  const seconds = `${Math.round(plan.timeoutMs / 100) / 10} s`

  async function run(signal: string): Promise<number> {
    plan.beginShutdown?.()
    for (const queue of queues.values()) closeAfterLast(queue)
    // The listener alone: http's close() first runs Node's closeIdleConnections, which cuts an answer still going out.
    const closed = new Promise<'drained'>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve('drained')),
    )
    closeIdle()
    const waiting = unfinished()
    plan.print(
      waiting === 0
        ? `Stopping (${signal}).`
        : `Stopping (${signal}): ${plural(waiting)} in flight, waiting at most ${seconds}.`,
    )
    const forced = new Promise<'forced'>((resolve) => (cutOff = () => resolve('forced')))
    // Every request answered is drained too: a connection left then has none in flight (one that sent nothing yet,
    // as a browser or a balancer opens ahead, or half a request's head), and waiting on it held every stop 10 s.
    const answered = new Promise<'drained'>((resolve) => {
      lastAnswered = () => resolve('drained')
      if (unfinished() === 0) resolve('drained')
    })
    const settled = Promise.race([closed, answered, forced]).then(async (how) => {
      if (how === 'drained') await plan.inFlight?.idle()
      return how
    })
    const drained = await withDeadline(Promise.race([settled, forced]), plan.timeoutMs)
    let code = 0
    if (drained === 'drained') server.closeAllConnections()
    else {
      plan.print(`Stopped waiting: ${plural(Math.max(unfinished(), plan.inFlight?.size ?? 0))} cut off.`)
      server.closeAllConnections()
      code = 1
    }
    const finished = await withDeadline(
      plan.close().then(
        () => 'closed' as const,
        () => 'failed' as const,
      ),
      plan.timeoutMs,
    )
    if (finished !== 'closed') {
      plan.print(
        finished === 'failed'
          ? 'Failed to write what was pending while stopping.'
          : `Failed to finish closing within ${seconds}.`,
      )
      code = 1
    }
    return code
  }

  return {
    stop(signal) {
      if (stopping) {
        cutOff?.()
        return stopping
      }
      stopping = run(signal)
      return stopping
    },
  }
}

const plural = (count: number) => `${count} request${count === 1 ? '' : 's'}`

/** The promise's value, or 'late' when it has not settled within `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)))
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}
