// What every domain module is given: the store, the clock, locks, the hasher, the outbox, the settings.
import type { RandomSource } from '../../shared/crypto.ts'
import type { TokenKeys } from './token-keys.ts'
import type { components } from '#api/control.gen.ts'
import type { Clock } from '../../shared/clock.ts'
import type { RuleSettings } from '../../shared/rule-settings.ts'
import type { Async } from './counters.ts'
import type { DecoyCodes } from './decoys.ts'
import type { GuessLog } from './guess-log.ts'
import type { KeyedLock } from './locks.ts'
import type { Lockout } from './lockout.ts'
import type { PasswordHasher } from './passwords.ts'
import type { PendingPasswords } from './pending-passwords.ts'
import type { ProductStore } from '../storage/port.ts'

/** Where the product sends its mails; the control surface's mailbox is the one handed in (core.ts). */
export interface MailSender {
  send(mail: Omit<components['schemas']['Mail'], 'sent_at'>): Promise<void>
}

/** The lifetimes and code rules of shared/rule-settings.ts, and the server's secret. */
export interface DomainConfig extends Pick<
  RuleSettings,
  | 'accessTokenTtlMs'
  | 'refreshTokenTtlMs'
  | 'refreshGraceMs'
  | 'codeTtlMs'
  | 'codeCooldownMs'
  | 'codeMaxAttempts'
> {
  /** Signs access tokens and keys the code hashes; random per server unless kept with --data. */
  secret: string
}

export interface DomainContext {
  store: ProductStore
  clock: Clock
  locks: KeyedLock
  hasher: PasswordHasher
  mailbox: MailSender
  config: DomainConfig
  /** Codes of addresses that have none (bounded; counters.ts says where). */
  decoys: Async<DecoyCodes>
  /** Wrong-password counts per (account, client address) and per account (counters.ts says where). */
  lockout: Async<Lockout>
  /** Wrong codes per (address, purpose) across resends (counters.ts says where). */
  guesses: Async<GuessLog>
  /** The newest sign-up's password hash per address, for sign-in's `unverified` (counters.ts says where). */
  pendingPasswords: Async<PendingPasswords>
  /** The random bytes of this server's tokens and ids (a pool of its own). */
  random: RandomSource
  /** The secret's keys and the access tokens verified under it. */
  tokenKeys: TokenKeys
}
