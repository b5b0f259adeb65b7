/**
 * Counts a server's database round trips on the wire: a TCP relay between the mock server and PostgreSQL that
 * reads what the server sends (PostgreSQL's frontend protocol) and changes nothing. node-postgres sends a
 * statement with parameters as Parse/Bind/Describe/Execute/Sync and waits for the answer, and one without as a
 * simple Query, so a round trip is one Sync or one Query message. No code of the server is changed or flagged
 * (docs/benchmarks.md, "Round trips").
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

export interface RoundTripCounter {
  /** The URL to give the server instead of `url`: the same database, through the relay. */
  url: string
  /** Round trips so far, each named by its statement (whitespace collapsed). */
  trips(): string[]
  /** Connections the server has opened through the relay so far. */
  connections(): number
  close(): Promise<void>
}

// The untyped first messages: protocol 3.0's startup, and the requests a client may send before it.
const STARTUP_PROTOCOL = 196608
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104

/**
 * Reads one client connection's messages, in chunks cut anywhere, and reports each round trip by its statement.
 * @example
 * const read = createTripReader((statement) => trips.push(statement))
 * socket.on('data', read)
 */
export function createTripReader(onTrip: (statement: string) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0)
  let started = false
  let lastParse = ''
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    for (;;) {
      const headerLength = started ? 5 : 4
      if (pending.length < headerLength) return
      const length = pending.readInt32BE(started ? 1 : 0)
      const total = started ? length + 1 : length
      if (pending.length < total) return
      const message = pending.subarray(0, total)
      pending = pending.subarray(total)
      if (!started) {
        // A request for TLS or GSS encryption comes before the startup message; anything else starts the session.
        const code = message.readInt32BE(4)
        started = code === STARTUP_PROTOCOL || (code !== SSL_REQUEST && code !== GSSENC_REQUEST)
        continue
      }
      const type = String.fromCharCode(message[0]!)
      const body = message.subarray(5)
      if (type === 'Q') onTrip(text(body.subarray(0, body.indexOf(0))))
      else if (type === 'P') {
        // Parse: the statement's name, then its text.
        const nameEnd = body.indexOf(0)
        lastParse = text(body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)))
      } else if (type === 'S') onTrip(lastParse)
    }
  }
}

const text = (bytes: Buffer) => bytes.toString('utf8').replace(/\s+/g, ' ').trim()

/** A relay in front of the PostgreSQL server `url` names, on 127.0.0.1 and a free port. */
export async function startRoundTripCounter(url: string): Promise<RoundTripCounter> {
  const target = new URL(url)
  const trips: string[] = []
  const sockets = new Set<Socket>()
  let connections = 0
  const server: Server = createServer((client) => {
    connections += 1
    const upstream = connect(Number(target.port || 5432), target.hostname)
    const read = createTripReader((statement) => trips.push(statement))
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.on('data', (chunk: Buffer) => {
      read(chunk)
      upstream.write(chunk)
    })
    upstream.pipe(client)
    client.on('end', () => upstream.end())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const relayed = new URL(url)
  relayed.hostname = '127.0.0.1'
  relayed.port = String((server.address() as AddressInfo).port)
  return {
    url: relayed.toString(),
    trips: () => [...trips],
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
