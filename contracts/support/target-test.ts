/**
 * A supertest request to a CONTRACT_TARGET that knows what it sent (docs/decisions/016-contract-target.md): a body
 * naming a seeded account, or a connection cut while an oversized body was sent, ends the test as not checkable.
 */
import request, { type Response } from 'supertest'
import { SEED_ACCOUNTS } from '#mock-server/product/domain/seed.ts'
import { notCheckable } from '#contracts/support/target.ts'
import type { Agent as HttpAgent } from 'node:http'

/** Bodies above this size may be cut off by a target that refuses them early (see TargetTest). */
const OVERSIZED_BODY_BYTES = 64 * 1024

const SEED_EMAILS = SEED_ACCOUNTS.map((account) => account.email.toLowerCase())

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A supertest request to the target that knows what it sent: the body's size, and whether it names a seeded account. */
export class TargetTest extends request.Test {
  private sentBytes = 0
  /** The JSON body sent, parsed; undefined for none or another kind. */
  sentJson: unknown
  /** When the request was started (ms since the epoch): a mail it causes comes after. */
  startedAt: number | undefined

  constructor(
    baseUrl: string,
    method: string,
    path: string,
    private readonly mockModeOnProduction: boolean,
    agent: HttpAgent | undefined,
  ) {
    super(baseUrl, method, path)
    if (agent) this.agent(agent)
  }

  override send(body?: string | object): this {
    const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? '' : JSON.stringify(body ?? '')
    this.sentBytes += Buffer.isBuffer(body) ? body.length : Buffer.byteLength(text)
    this.sentJson = parseJson(typeof body === 'string' ? body : text)
    if (this.mockModeOnProduction && SEED_EMAILS.some((email) => text.toLowerCase().includes(email)))
      notCheckable('uses the seeded accounts of mock mode, which a production target does not have')
    return super.send(body)
  }

  // A server may close the connection on an oversized body before it is all written.
  // The client then sees EPIPE or ECONNRESET, not the answer.
  override then<TResult1 = Response, TResult2 = never>(
    onAnswer?: ((value: Response) => TResult1 | PromiseLike<TResult1>) | null,
    onError?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    this.startedAt ??= Date.now()
    return super.then(onAnswer, (error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code
      if (this.sentBytes > OVERSIZED_BODY_BYTES && (code === 'EPIPE' || code === 'ECONNRESET')) {
        try {
          notCheckable(
            `the target closed the connection while a ${this.sentBytes}-byte body was being sent (${code}), so its answer cannot be read over the network`,
          )
        } catch (skipped) {
          error = skipped
        }
      }
      if (onError) return onError(error)
      throw error
    })
  }
}
