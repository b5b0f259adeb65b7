// The mock server's state: @msw/data collections, one set per app instance (no module-level state).
// Also the snapshot and restore used by `--data FILE`.
import { Collection } from '@msw/data'
import { z } from 'zod'
import { IndexedCollection } from './indexed-collection.ts'

const nullableNumber = z.number().nullable()

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  passwordHash: z.string(),
  verified: z.boolean(),
  createdAt: z.number(),
})

export const sessionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  cookieHash: z.string(),
  serviceTokenHash: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  revokedAt: nullableNumber,
  revokedReason: z.string().nullable(),
})

export const refreshTokenSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  hash: z.string(),
  createdAt: z.number(),
  retiredAt: nullableNumber,
  childId: z.string().nullable(),
  /** The child pair, sealed under this token; kept only until the grace window closes. */
  graceBox: z.string().nullable(),
})

export const codeSchema = z.object({
  id: z.string(),
  email: z.string(),
  purpose: z.enum(['signup', 'login', 'reset']),
  hash: z.string(),
  sentAt: z.number(),
  expiresAt: z.number(),
  attempts: z.number(),
  usedAt: nullableNumber,
  burned: z.boolean(),
  supersededAt: nullableNumber,
  /**
   * A `signup` code's sign-up: the name and password hash it proves, when the address is proven with it
   * (null: none, the address then gets no password; docs/security/codes.md). A default for older data files.
   */
  signup: z.object({ name: z.string(), passwordHash: z.string() }).nullable().default(null),
})

export const resetTokenSchema = z.object({
  id: z.string(),
  userId: z.string(),
  hash: z.string(),
  expiresAt: z.number(),
  usedAt: nullableNumber,
})

export const stepSchema = z.object({
  id: z.string(),
  userId: z.string(),
  position: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['todo', 'in_progress', 'done']),
  scheduled_at: z.string().nullable(),
})

export function createStore() {
  return {
    // Found by id or address at every signed-in call and sign-in.
    users: new IndexedCollection({ schema: userSchema, indexes: ['id', 'email'] }),
    // Found by id at every bearer check and refresh, by cookie at every session call.
    sessions: new IndexedCollection({ schema: sessionSchema, indexes: ['id', 'cookieHash'] }),
    // A refresh finds its token by hash among every token ever issued and not yet purged, then its child by id.
    refreshTokens: new IndexedCollection({ schema: refreshTokenSchema, indexes: ['id', 'hash'] }),
    codes: new Collection({ schema: codeSchema }),
    resetTokens: new Collection({ schema: resetTokenSchema }),
    steps: new Collection({ schema: stepSchema }),
  }
}

export type Store = ReturnType<typeof createStore>
type RecordOf<K extends keyof Store> = ReturnType<Store[K]['all']>[number]
export type UserRecord = RecordOf<'users'>
export type SessionRecord = RecordOf<'sessions'>
export type RefreshTokenRecord = RecordOf<'refreshTokens'>
export type CodeRecord = RecordOf<'codes'>
export type ResetTokenRecord = RecordOf<'resetTokens'>
export type StepRecord = RecordOf<'steps'>
/** A code's fields, without the store's own bookkeeping (what a decoy is). */
export type CodeFields = z.infer<typeof codeSchema>
export type StoreSnapshot = { [K in keyof Store]: unknown[] }

export function snapshotStore(store: Store): StoreSnapshot {
  const entries = Object.entries(store).map(([name, collection]) => [name, collection.all()])
  return JSON.parse(JSON.stringify(Object.fromEntries(entries))) as StoreSnapshot
}

/** Replaces the store's contents with a snapshot; every record is validated by its schema. */
export async function restoreStore(store: Store, snapshot: Partial<StoreSnapshot>): Promise<void> {
  for (const [name, collection] of Object.entries(store) as [keyof Store, Store[keyof Store]][]) {
    collection.clear()
    for (const record of snapshot[name] ?? []) {
      await (collection as Collection<z.ZodType>).create(record)
    }
  }
}

export async function clearStore(store: Store): Promise<void> {
  for (const collection of Object.values(store)) collection.clear()
}
