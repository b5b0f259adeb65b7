// What the product's operation handlers are given: the domain, the limiters, the mail sender and the served build.
import type { DomainContext, MailSender } from '../domain/context.ts'
import type { RateLimiter } from '../domain/rate-limit.ts'
import type { Async, LimiterName } from '../domain/counters.ts'
import { refusedByRule } from '../../pipeline/answers.ts'
import type { AuthState } from '../../pipeline/types.ts'
import type { UserRecord } from '../storage/records.ts'

/** The served web build (web/dist) and the id QA made the server announce as newest (POST /__mock/build), if any. */
export interface ServedBuild {
  webRoot?: string
  /** Reads a file of the build's `builds/` folder (the Node server's, handed in by app.ts); the demo has none. */
  readBuildFile?: BuildFileReader | undefined
  override: { id: string; timestamp: number } | null
}

/** Reads `builds/<file>` under the web root, as text. */
export type BuildFileReader = (webRoot: string, file: string) => string

export interface ProductContext {
  domain: DomainContext
  limiters: Record<LimiterName, Async<RateLimiter>>
  mailbox: MailSender
  build: ServedBuild
  /** The account the call's access token was checked against, read with its session (product/index.ts). */
  accountOf(auth: AuthState): Promise<UserRecord | null>
}

/** A well-formed password the policy refuses (docs/security/hardening.md): not a schema refusal, so a code of its own. */
export const passwordRejected = (reason: string) => refusedByRule('password_rejected', 'password', reason)
