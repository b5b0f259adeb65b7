// A TCP proxy a test puts between the server and its database, to take the database away and give it back
// without stopping the machine's PostgreSQL, which other test files share.
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface TcpProxy {
  port: number
  /** Every open connection is cut, and new ones are refused (ECONNREFUSED), as when the database stops. */
  cut(): Promise<void>
  /** New connections reach nothing and hear nothing (a database that hangs, or a dropped route). */
  stall(): void
  /** New connections reach the database again, on the same port. */
  restore(): Promise<void>
  close(): Promise<void>
  /** How many connections it has taken, stalled ones included. */
  accepted(): number
}

/**
 * @example
 * const proxy = await createTcpProxy({ host: '127.0.0.1', port: 5432 })
 * await proxy.cut() // the server's next query fails
 */
export async function createTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let mode: 'forward' | 'stall' = 'forward'
  let accepted = 0
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const handle = (client: Socket) => {
    accepted += 1
    track(client)
    if (mode === 'stall') return
    const upstream = connect(target.port, target.host)
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  }
  let server: Server = createServer(handle)
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
    })
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()))
  const port = await listen(0)
  const dropAll = () => {
    for (const socket of sockets) socket.destroy()
  }
  return {
    port,
    async cut() {
      const closed = closeServer()
      dropAll()
      await closed
    },
    stall() {
      mode = 'stall'
      dropAll()
    },
    async restore() {
      mode = 'forward'
      if (server.listening) return
      server = createServer(handle)
      await listen(port)
    },
    async close() {
      dropAll()
      if (server.listening) await closeServer()
    },
    accepted: () => accepted,
  }
}
