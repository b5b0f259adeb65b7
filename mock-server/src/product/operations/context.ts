// What the operation handlers are given: the domain, the limiters, and the control pieces.
import type { ControlClock } from '../../control/clock.ts'
import { EARLIEST_DATE_MS, LATEST_DATE_MS } from '../../shared/constants.ts'
import type { Journal } from '../../pipeline/journal.ts'
import type { Mailbox } from '../../control/mailbox.ts'
import type { Scenarios } from '../../control/scenarios.ts'
import type { Sinks } from '../../control/sinks.ts'
import type { DomainContext } from '../domain/context.ts'
import type { RateLimiter } from '../domain/rate-limit.ts'
import type { ExternalSignInProvider } from '../domain/external-sign-in.ts'
import type { OpenIdProvider } from '../../idp/provider.ts'
import type { PendingSignIns } from '../../external-sign-in/pending-sign-ins.ts'

export interface OperationsContext {
  domain: DomainContext
  limiters: { login: RateLimiter; mail: RateLimiter; verify: RateLimiter }
  mailbox: Mailbox
  clock: ControlClock
  scenarios: Scenarios
  journal: Journal
  sinks: Sinks
  /** The served web build (web/dist) and the id QA made the server announce as newest, if any. */
  build: { webRoot?: string; override: { id: string; timestamp: number } | null }
  /** Back to the seed state. */
  reset(): Promise<void>
  /** External sign-in's identity provider; null when this server has none (production mode by default). */
  external: ExternalSignInProvider | null
  /** The external sign-ins started and not yet called back, bound to their browsers. */
  pendingSignIns: PendingSignIns
  /** The OpenID provider the mock plays at /idp; null in production mode. */
  idp: OpenIdProvider | null
  /** The control token the server was started with, if any: /idp's form asks for it too. */
  controlToken: string | undefined
  /** The origin people reach the server at, when configured (--public-origin); else each request's own. */
  publicOrigin: string | undefined
}

/** The origin a request reached this server at, as people see it: the configured public origin, or the request's. */
export function getPublicOrigin(
  ops: Pick<OperationsContext, 'publicOrigin'>,
  request: { origin: string },
): string {
  return ops.publicOrigin ?? request.origin
}

/**
 * A same-origin relative path (no scheme, no host, no `//`), safe to redirect to. Only printable ASCII: a
 * `Location` header cannot carry anything else (DEL, U+0100, U+2028 would fail when the answer is sent).
 */
export function isSafeRedirectPath(value: string): boolean {
  if (!/^\/[\x21-\x7e]*$/.test(value) || value.startsWith('//') || value.includes('\\')) return false
  // A path the browser normalizes to a leading `//` (`/.//evil.example`) names another host.
  return !new URL(value, 'http://same.origin').pathname.startsWith('//')
}

export function rateLimited(retryAfter: number) {
  return {
    status: 429 as const,
    headers: { 'retry-after': String(retryAfter) },
    body: {
      error: 'rate_limited' as const,
      message: `Too many attempts. Try again in ${retryAfter} seconds.`,
      retry_after: retryAfter,
    },
  }
}

export function validationFailed(field: string, reason: string) {
  return {
    status: 400 as const,
    body: {
      error: 'validation_failed' as const,
      message: `${field}: ${reason}`,
      fields: { [field]: reason },
    },
  }
}

/** A well-formed password the policy refuses (docs/security/hardening.md): not a schema refusal, so a code of its own. */
/**
 * A well-formed request a rule refuses, one the schema cannot state: its own code, and the field it names.
 * @example refusedByRule('password_rejected', 'password', 'This password is too common.')
 */
export function refusedByRule<Code extends string>(error: Code, field: string, reason: string) {
  return {
    status: 400 as const,
    body: { error, message: `${field}: ${reason}`, fields: { [field]: reason } },
  }
}

export const passwordRejected = (reason: string) => refusedByRule('password_rejected', 'password', reason)

/** Whether an instant can be written as an RFC 3339 date-time (a four-digit year, docs/security/hardening.md). */
export function isWritableDate(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_DATE_MS && ms <= LATEST_DATE_MS
}
