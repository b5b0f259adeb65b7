import { once } from 'node:events'
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createGracefulShutdown, type ShutdownPlan } from './graceful-shutdown.ts'
import { createInFlight } from './in-flight.ts'

interface Held {
  server: Server
  port: number
  /** Resolves when the server has received the held request. */
  arrived: Promise<void>
  /** Lets the held request answer. */
  release(): void
  /** The paths of the requests it has received, in order. */
  seen: string[]
}

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

/** A server whose /hold requests answer only once released; any other path answers at once. */
async function startHoldingServer(): Promise<Held> {
  let arrive = () => undefined as void
  let release = () => undefined as void
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(req.url ?? '')
    if (req.url !== '/hold') return void res.end('quick')
    arrive()
    void released.then(() => res.end('held answer'))
  })
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, port: (server.address() as AddressInfo).port, arrived, release, seen }
}

function get(port: number, path: string, agent?: Agent): Promise<IncomingMessage & { text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve(Object.assign(res, { text })))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Whether a new connection to the port is refused. */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

/** A raw connection to `port`: what it received, its close, and a GET sent on it (pipelined as the test wants). */
async function rawConnection(port: number) {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  const closed = once(socket, 'close')
  await once(socket, 'connect')
  const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`
  return {
    closed,
    /** The answers received, each split off at its status line. */
    answers: () => received.split(/(?=HTTP\/1\.1 )/),
    send: (...paths: string[]) => socket.write(paths.map(request).join('')),
  }
}

function planFor(events: string[], overrides: Partial<ShutdownPlan> = {}): ShutdownPlan {
  return {
    timeoutMs: 10_000,
    beginShutdown: () => events.push('not ready'),
    close: async () => void events.push('closed'),
    print: (line) => events.push(line),
    ...overrides,
  }
}

test('refuses new connections, lets the request in flight answer, then closes and resolves 0', async () => {
  const held = await startHoldingServer()
  const events: string[] = []
  const shutdown = createGracefulShutdown(held.server, planFor(events))
  const answer = get(held.port, '/hold')
  await held.arrived
  const code = shutdown.stop('SIGTERM')
  expect(events).toEqual(['not ready', 'Stopping (SIGTERM): 1 request in flight, waiting at most 10 s.'])
  expect(await isRefused(held.port)).toBe(true)
  held.release()
  const res = await answer
  expect(res.statusCode).toBe(200)
  expect(res.text).toBe('held answer')
  expect(res.headers.connection).toBe('close')
  expect(await code).toBe(0)
  expect(events.at(-1)).toBe('closed')
})

test.each([
  ['before the stop', true],
  ['once the stop has begun', false],
])(
  'a request pipelined behind one in flight, sent %s, is answered before its connection closes',
  async (_when, before) => {
    const held = await startHoldingServer()
    const events: string[] = []
    const shutdown = createGracefulShutdown(held.server, planFor(events))
    const connection = await rawConnection(held.port)
    connection.send(...(before ? ['/hold', '/quick'] : ['/hold']))
    await held.arrived
    if (before) await expect.poll(() => held.seen).toEqual(['/hold', '/quick'])
    const code = shutdown.stop('SIGTERM')
    if (!before) {
      connection.send('/quick')
      await expect.poll(() => held.seen).toEqual(['/hold', '/quick'])
    }
    held.release()
    await connection.closed
    // Both answers, in order, and then the connection closes. Neither says close: the second was answered while
    // queued behind the first, before the stop could know whether a third would come; the connection, idle once
    // both are out, is closed as such.
    const answers = connection.answers()
    expect(answers.map((answer) => /\r\n\r\n(.*)$/s.exec(answer)?.[1])).toEqual(['held answer', 'quick'])
    expect(answers.map((answer) => /^connection: (.*)\r$/im.exec(answer)?.[1])).toEqual([
      'keep-alive',
      'keep-alive',
    ])
    expect(await code).toBe(0)
  },
)

test('a third request pipelined once the second, answered during the stop, is done: all three are answered', async () => {
  const held = await startHoldingServer()
  const events: string[] = []
  const shutdown = createGracefulShutdown(held.server, planFor(events))
  const connection = await rawConnection(held.port)
  connection.send('/hold')
  await held.arrived
  const code = shutdown.stop('SIGTERM')
  // The second is done at once (its handler ended it, queued behind /hold) before the third arrives.
  connection.send('/quick')
  await expect.poll(() => held.seen).toEqual(['/hold', '/quick'])
  connection.send('/third')
  await expect.poll(() => held.seen).toEqual(['/hold', '/quick', '/third'])
  held.release()
  await connection.closed
  expect(connection.answers().map((answer) => /\r\n\r\n(.*)$/s.exec(answer)?.[1])).toEqual([
    'held answer',
    'quick',
    'quick',
  ])
  expect(await code).toBe(0)
})

test('an answer still going out to a slow reader when the stop begins reaches it whole', async () => {
  const body = 'x'.repeat(8 * 1024 * 1024)
  const server = createServer((_request, response) => response.end(body))
  servers.push(server)
  const events: string[] = []
  const shutdown = createGracefulShutdown(server, planFor(events))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1')
  await once(socket, 'connect')
  let received = 0
  socket.on('data', (chunk: Buffer) => (received += chunk.length))
  socket.on('error', () => undefined)
  const closed = once(socket, 'close')
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
  await expect.poll(() => received).toBeGreaterThan(0)
  // The handler has ended its response; most of the body waits for the reader.
  socket.pause()
  // The stop closes what it closes at once, before its first wait.
  const code = shutdown.stop('SIGTERM')
  socket.resume()
  await closed
  expect(received).toBeGreaterThan(body.length)
  expect(await code).toBe(0)
})

test('closes an idle keep-alive connection at once, so it holds nothing up', async () => {
  const held = await startHoldingServer()
  const agent = new Agent({ keepAlive: true })
  const first = await get(held.port, '/quick', agent)
  expect(first.headers.connection).toBe('keep-alive')
  const socketClosed = once(Object.values(agent.freeSockets).flat()[0]!, 'close')
  const events: string[] = []
  expect(await createGracefulShutdown(held.server, planFor(events)).stop('SIGINT')).toBe(0)
  await socketClosed
  expect(events).toEqual(['not ready', 'Stopping (SIGINT).', 'closed'])
  agent.destroy()
})

test('a connection that has sent nothing, or half a request head, holds nothing up: closed, resolves 0', async () => {
  const held = await startHoldingServer()
  const sockets = ['', 'GET /quick HTTP/1.1\r\nHost: x\r\n'].map((sent) => {
    const socket = connect(held.port, '127.0.0.1')
    socket.on('error', () => undefined)
    socket.once('connect', () => socket.write(sent))
    return socket
  })
  await Promise.all(sockets.map((socket) => once(socket, 'connect')))
  // A reset is how the server may close them: 'error' first, then 'close'.
  const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)))
  const events: string[] = []
  expect(await createGracefulShutdown(held.server, planFor(events)).stop('SIGTERM')).toBe(0)
  await Promise.all(closed)
  expect(events).toEqual(['not ready', 'Stopping (SIGTERM).', 'closed'])
})

test('a call whose client gave up is waited for until its handler is done, then the store closes', async () => {
  const inFlight = createInFlight()
  const events: string[] = []
  let finish = () => undefined as void
  let responded = (_response: ServerResponse) => undefined as void
  const arrived = new Promise<ServerResponse>((resolve) => (responded = resolve))
  const server = createServer((_request, response) => {
    responded(response)
    // The handler writes to the store after its client has gone, then answers into the closed response.
    void inFlight.track(
      new Promise<void>((resolve) => (finish = resolve)).then(() => {
        events.push('handler done')
        response.end()
      }),
    )
  })
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const shutdown = createGracefulShutdown(server, planFor(events, { inFlight }))
  const client = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' })
  client.on('error', () => undefined)
  client.end()
  const response = await arrived
  const stopped = shutdown.stop('SIGTERM')
  const gone = once(response, 'close')
  client.destroy()
  await gone
  // The client is gone and its response closed; a few turns later the stop still waits for the handler.
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve))
  expect(events).not.toContain('closed')
  finish()
  expect(await stopped).toBe(0)
  expect(events).toEqual([
    'not ready',
    'Stopping (SIGTERM): 1 request in flight, waiting at most 10 s.',
    'handler done',
    'closed',
  ])
})

test('past the timeout it cuts the request off, still closes, and resolves 1', async () => {
  const held = await startHoldingServer()
  const events: string[] = []
  const shutdown = createGracefulShutdown(held.server, planFor(events, { timeoutMs: 50 }))
  const answer = get(held.port, '/hold').then(
    () => 'answered',
    (error: NodeJS.ErrnoException) => error.code,
  )
  await held.arrived
  expect(await shutdown.stop('SIGTERM')).toBe(1)
  expect(await answer).toBe('ECONNRESET')
  expect(events.slice(1)).toEqual([
    'Stopping (SIGTERM): 1 request in flight, waiting at most 0.1 s.',
    'Stopped waiting: 1 request cut off.',
    'closed',
  ])
})

test('a second signal cuts the requests in flight off at once', async () => {
  const held = await startHoldingServer()
  const events: string[] = []
  const shutdown = createGracefulShutdown(held.server, planFor(events))
  void get(held.port, '/hold').catch(() => undefined)
  await held.arrived
  const first = shutdown.stop('SIGINT')
  expect(await shutdown.stop('SIGINT')).toBe(1)
  expect(await first).toBe(1)
  expect(events).toContain('Stopped waiting: 1 request cut off.')
})

test('a close that fails or hangs is one line and exit code 1', async () => {
  for (const [close, line] of [
    [() => Promise.reject(new Error('disk full')), 'Failed to write what was pending while stopping.'],
    [() => new Promise<void>(() => undefined), 'Failed to finish closing within 0.1 s.'],
  ] as const) {
    const held = await startHoldingServer()
    const events: string[] = []
    const plan = planFor(events, { close, timeoutMs: 50 })
    expect(await createGracefulShutdown(held.server, plan).stop('SIGTERM')).toBe(1)
    expect(events.at(-1)).toBe(line)
  }
})
