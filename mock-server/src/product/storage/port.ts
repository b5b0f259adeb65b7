// The product's storage port: everything the domain reads or writes goes through it, so the same rules run on
// memory (@msw/data), embedded SQL (PGlite) and PostgreSQL (docs/decisions/024-storage-port.md).
// A write a rule depends on is one atomic step here (a compare-and-set or a conditional update), never a read in
// the domain followed by a write: two instances on one database cannot both win it.
import type {
  CodeRecord,
  CollectionName,
  ProductSnapshot,
  RefreshTokenRecord,
  ResetTokenRecord,
  SessionRecord,
  StepRecord,
  UserRecord,
} from './records.ts'

type Purpose = CodeRecord['purpose']

export interface UsersRepository {
  byId(id: string): Promise<UserRecord | null>
  /** By normalized address. */
  byEmail(email: string): Promise<UserRecord | null>
  /** Refuses (`null`) when the address already has an account. */
  create(user: UserRecord): Promise<UserRecord | null>
  update(
    id: string,
    patch: Partial<Pick<UserRecord, 'name' | 'passwordHash' | 'verified'>>,
  ): Promise<UserRecord | null>
  /** Accounts never verified, oldest first, but those whose address is in `keep`. */
  listUnverified(keep: ReadonlySet<string>): Promise<Pick<UserRecord, 'id' | 'email' | 'createdAt'>[]>
  /**
   * Deletes an account that is still unverified and has no code, with its steps and reset tokens; returns how many
   * records went (0 when it was verified or got a code meanwhile).
   */
  deleteUnverified(id: string): Promise<number>
}

/** A session with its account, read in one step (one round trip on SQL). */
export interface SessionWithUser {
  session: SessionRecord
  /** Null when the account is gone. */
  user: UserRecord | null
}

export interface SessionsRepository {
  create(session: SessionRecord): Promise<SessionRecord>
  byId(id: string): Promise<SessionRecord | null>
  byCookieHash(cookieHash: string): Promise<SessionRecord | null>
  /** The session and its account: an access token's check, then its call, read the database once. */
  byIdWithUser(id: string): Promise<SessionWithUser | null>
  byCookieHashWithUser(cookieHash: string): Promise<SessionWithUser | null>
  /** Live (unrevoked) sessions of an account. */
  listLive(userId: string): Promise<SessionRecord[]>
  /**
   * Revokes a live session and drops its family's sealed pairs, at once; false when it was revoked already
   * (the first reason stays).
   */
  revoke(id: string, at: number, reason: string): Promise<boolean>
  /** Deletes sessions ended (expired or revoked) at or before `endedBy`, with their refresh tokens; how many went. */
  purgeEnded(endedBy: number): Promise<number>
}

/** What a rotation writes: the child token and the parent's retirement with the sealed pair for the grace window. */
export interface Rotation {
  parentId: string
  child: RefreshTokenRecord
  retiredAt: number
  graceBox: string
}

export interface RefreshTokensRepository {
  create(token: RefreshTokenRecord): Promise<RefreshTokenRecord>
  byHash(hash: string): Promise<RefreshTokenRecord | null>
  /** The token and its session (null when gone), in one step: a refresh is this read and its rotation. */
  byHashWithSession(
    hash: string,
  ): Promise<{ token: RefreshTokenRecord; session: SessionRecord | null } | null>
  byId(id: string): Promise<RefreshTokenRecord | null>
  /**
   * One compare-and-set: retires the parent if it is still live and stores its child. False when another rotation
   * retired it first (then nothing is written).
   */
  rotate(rotation: Rotation): Promise<boolean>
}

/** The outcome of one wrong code against a stored code. */
export interface Attempt {
  attempts: number
  burned: boolean
}

export interface CodesRepository {
  /** The newest code of an address and purpose (by sentAt), used or not. */
  latest(email: string, purpose: Purpose): Promise<CodeRecord | null>
  /** Codes not used and not expired by `now` (superseded or burned ones included). */
  listUnused(email: string, purpose: Purpose, now: number): Promise<CodeRecord[]>
  /** Supersedes every live code of the address and purpose, then stores `code`: one step. */
  issue(code: CodeRecord): Promise<void>
  /** Uses a code if it is still usable at `now`: unused, not superseded, not burned, not expired. One step. */
  use(id: string, now: number): Promise<boolean>
  /** Counts one wrong answer (burning the code at `maxAttempts`) if it is not burned yet; null when it was. */
  recordWrong(id: string, maxAttempts: number): Promise<Attempt | null>
  /** Unused sign-up codes of an address prove `signup` from now on; null withdraws them (they prove no one's). */
  setSignUps(email: string, signup: CodeRecord['signup']): Promise<void>
  /** Whether an address has any code at all (a purge keeps its unverified account). */
  anyFor(email: string): Promise<boolean>
  /** Deletes codes expired by `now` whose cooldown is over too; how many went. */
  purgeDone(now: number, cooldownMs: number): Promise<number>
}

export interface ResetTokensRepository {
  /** Stores `token` as the account's only reset token. */
  replace(token: ResetTokenRecord): Promise<void>
  byHash(hash: string): Promise<ResetTokenRecord | null>
  /** Uses a reset token if it is unused and unexpired at `now`; its account, or null. One step. */
  use(hash: string, now: number): Promise<string | null>
  deleteFor(userId: string): Promise<void>
  /** Deletes used or expired tokens; how many went. */
  purgeDone(now: number): Promise<number>
}

export interface StepsRepository {
  createAll(steps: StepRecord[]): Promise<void>
  /** An account's steps in their order. */
  list(userId: string): Promise<StepRecord[]>
  update(
    userId: string,
    id: string,
    patch: Partial<Pick<StepRecord, 'status' | 'scheduled_at'>>,
  ): Promise<StepRecord | null>
}

export interface ProductStore {
  users: UsersRepository
  sessions: SessionsRepository
  refreshTokens: RefreshTokensRepository
  codes: CodesRepository
  resetTokens: ResetTokensRepository
  steps: StepsRepository
  /** Every record, each collection in the order it was written (`GET /__mock/state`, a data file). */
  snapshot(): Promise<ProductSnapshot>
  /** Replaces every record with the snapshot's (validated by the caller). */
  restore(snapshot: Partial<ProductSnapshot>): Promise<void>
  /** Forgets every record (`POST /__mock/reset`). */
  clear(): Promise<void>
}

export type { CollectionName, ProductSnapshot }
