// What the product's operation handlers are given: the domain, the limiters, the mail sender and the served build.
import type { DomainContext, MailSender } from '../domain/context.ts'
import type { RateLimiter } from '../domain/rate-limit.ts'
import { refusedByRule } from '../../pipeline/answers.ts'

/** The served web build (web/dist) and the id QA made the server announce as newest (POST /__mock/build), if any. */
export interface ServedBuild {
  webRoot?: string
  override: { id: string; timestamp: number } | null
}

export interface ProductContext {
  domain: DomainContext
  limiters: { login: RateLimiter; mail: RateLimiter; verify: RateLimiter }
  mailbox: MailSender
  build: ServedBuild
}

/** A well-formed password the policy refuses (docs/security/hardening.md): not a schema refusal, so a code of its own. */
export const passwordRejected = (reason: string) => refusedByRule('password_rejected', 'password', reason)
