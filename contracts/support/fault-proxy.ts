/**
 * A planted fault in front of a server: a node:http proxy that passes every call through to `target` and lets a
 * fault replace the answer of the routes it names. The suite's own tests point CONTRACT_TARGET at it to show that a
 * backend with that fault fails the run (contracts/support/target-faults.test.ts, docs/contract-suite.md).
 * @example
 * const proxy = await startFaultProxy(mock.origin, {
 *   'POST /api/refresh_token': (call) => withJson(call.answer, { ...call.json(), refresh_token: 'same' }),
 * })
 * // CONTRACT_TARGET=proxy.origin; await proxy.close()
 */
import { once } from 'node:events'
import { Agent, createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ProxyAnswer {
  status: number
  /** As the target sent them (lower-case names; `set-cookie` an array). */
  headers: OutgoingHttpHeaders
  body: Buffer
}

/** One call through the proxy: what the client sent, and the target's answer. */
export interface ProxyCall {
  method: string
  /** Path and query, as sent. */
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** The request's body as JSON (undefined when it is none). */
  json(): unknown
  answer: ProxyAnswer
}

/** Returns the answer to send instead of the target's, or undefined to pass the target's on. */
export type Fault = (call: ProxyCall) => ProxyAnswer | undefined | Promise<ProxyAnswer | undefined>

export interface FaultProxy {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  /** How many answers a fault replaced so far: a test can show the fault was met. */
  replaced(): number
  close(): Promise<void>
}

/** `answer` with `value` as its JSON body. */
export function withJson(answer: ProxyAnswer, value: unknown): ProxyAnswer {
  const body = Buffer.from(JSON.stringify(value))
  const { 'content-length': _length, 'transfer-encoding': _chunked, ...headers } = answer.headers
  return { status: answer.status, headers: { ...headers, 'content-length': body.length }, body }
}

/** A JSON body as a value, or undefined when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** Hop-by-hop headers belong to one connection, not to the answer. */
const HOP_BY_HOP = ['connection', 'keep-alive']

/**
 * Starts the proxy on 127.0.0.1, port 0. `faults` are keyed by route: method and path without the query
 * (`POST /api/refresh_token`). The Host header is passed as sent, so a same-site check sees the proxy's origin.
 */
export async function startFaultProxy(target: string, faults: Record<string, Fault>): Promise<FaultProxy> {
  const agent = new Agent({ keepAlive: true })
  let replaced = 0
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      const upstream = request(`${target}${incoming.url}`, {
        method: incoming.method,
        headers: incoming.headers,
        agent,
      })
      // A target that drops the connection (the answer-lost scenario) is passed on as a dropped connection.
      upstream.on('error', () => outgoing.destroy())
      upstream.on('response', (response) => {
        const answerChunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => answerChunks.push(chunk))
        response.on('error', () => outgoing.destroy())
        response.on('end', () => {
          const headers: OutgoingHttpHeaders = { ...response.headers }
          for (const name of HOP_BY_HOP) delete headers[name]
          const answer = { status: response.statusCode ?? 502, headers, body: Buffer.concat(answerChunks) }
          const route = `${incoming.method ?? 'GET'} ${(incoming.url ?? '/').split('?')[0]}`
          const fault = faults[route]
          const call: ProxyCall = {
            method: incoming.method ?? 'GET',
            url: incoming.url ?? '/',
            headers: incoming.headers,
            body,
            json: () => parseJson(body),
            answer,
          }
          void Promise.resolve(fault?.(call)).then(
            (instead) => {
              if (instead) replaced += 1
              const sent = instead ?? answer
              outgoing.writeHead(sent.status, sent.headers).end(sent.body)
            },
            () => outgoing.destroy(),
          )
        })
      })
      upstream.end(body)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    replaced: () => replaced,
    close: async () => {
      server.closeAllConnections()
      agent.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
