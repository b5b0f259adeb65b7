// The typed operation table: one handler per operationId of an OpenAPI document, its input parsed and
// validated, its output a status with the body of that status's schema. A missing operation, or a
// body that does not fit its status, fails the typecheck.

import type { components } from '#api/openapi.gen.ts'

type ErrorCode = components['schemas']['ErrorCode']

export interface CookieInstruction {
  /** `session`: the session cookie; `external`: the browser's binding to the external sign-ins it started. */
  name: 'session' | 'external'
  /** The value to set, or null to clear the cookie. */
  value: string | null
  maxAgeSeconds?: number
}

export type AuthState =
  | { kind: 'none' }
  | { kind: 'valid'; userId: string; sessionId: string }
  | { kind: 'rejected'; code: Extract<ErrorCode, 'token_expired' | 'token_invalid' | 'session_revoked'> }

/** What every handler may know of the request besides its parsed parameters and body. */
export interface RequestFacts {
  method: string
  path: string
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>
  cookies: Record<string, string | undefined>
  /** The client's address, for rate limits. */
  ip: string
  /** Whether the request came over https (Secure, __Host- cookies). */
  secure: boolean
  /** This server's own origin, e.g. http://127.0.0.1:4010. */
  origin: string
  /** The call came from an origin named with --cors-origin: the app deployed on its own origin (pipeline/cors.ts). */
  fromCorsOrigin: boolean
  auth: AuthState
}

type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never
// A status documented with both JSON and HTML (the identity provider's form) takes either body; the API reference's
// script (/__mock/docs) is JavaScript.
type JsonOf<R> = R extends { content: infer C }
  ? | (C extends { 'application/json': infer B } ? B : never)
    | (C extends { 'text/html': infer H } ? H : never)
    | (C extends { 'text/javascript': infer S } ? S : never)
  : undefined
type BodyField<B> = [B] extends [undefined] ? { body?: undefined } : { body: B }

// A handler answers with an exact status. The ranges (`5XX`), `default` and the control surface's `500` are the
// pipeline's: a thrown handler, an armed server-error; a handler never picks them.
type HandlerStatus<Op> = Exclude<keyof ResponsesOf<Op>, 'default' | `${1 | 2 | 3 | 4 | 5}XX` | 500>

export type OutputFor<Op> = {
  [S in HandlerStatus<Op>]: {
    status: S
    headers?: Record<string, string>
    cookies?: CookieInstruction[]
  } & BodyField<JsonOf<ResponsesOf<Op>[S]>>
}[HandlerStatus<Op>]

// `requestBody?: undefined` (an operation without a body) has no content: its body is undefined, not never.
type ContentOf<Op> = Op extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? never
    : NonNullable<R> extends { content: infer C }
      ? C
      : never
  : never
type RequestBodyOf<Op> = [ContentOf<Op>] extends [never] ? undefined : ContentOf<Op>[keyof ContentOf<Op>]
type ParamOf<Op, K extends string> = Op extends { parameters: infer P }
  ? K extends keyof P
    ? [NonNullable<P[K]>] extends [never]
      ? Record<string, never>
      : NonNullable<P[K]>
    : Record<string, never>
  : Record<string, never>

export interface InputFor<Op> {
  body: RequestBodyOf<Op>
  query: ParamOf<Op, 'query'>
  path: ParamOf<Op, 'path'>
  request: RequestFacts
}

export type Handler<Op> = (input: InputFor<Op>) => Promise<OutputFor<Op>> | OutputFor<Op>

export type OperationTable<Ops> = { [K in keyof Ops]: Handler<Ops[K]> }

/** The table as the dispatcher sees it, once typed by its document. */
export interface AnyOutput {
  status: number
  body?: unknown
  headers?: Record<string, string>
  cookies?: CookieInstruction[]
}

/** The input the dispatcher builds for any operation: the parameters and body its validators accepted. */
export interface AnyInput {
  body: unknown
  query: Record<string, unknown>
  path: Record<string, unknown>
  request: RequestFacts
}

/**
 * The handler's shape as a method, so that TypeScript compares its parameter both ways: the handler of one operation,
 * whose input is narrower than AnyInput, fits, while its output must still be an AnyOutput. Narrowing is sound here
 * because the dispatcher only calls a handler with input its route's validators accepted (pipeline/read-input.ts).
 */
interface ErasedHandler {
  handle(input: AnyInput): Promise<AnyOutput> | AnyOutput
}
export type AnyHandler = ErasedHandler['handle']

/**
 * An operation table with its operation types erased, keyed by operationId. An `OperationTable<Ops>` is one as it is:
 * `const handlers: HandlerMap = createOperations(ctx)` is checked handler by handler, with no cast.
 */
export type HandlerMap = Readonly<Record<string, AnyHandler>>
