// The product's records, one schema each: what every store keeps (product/storage/port.ts), whatever its engine.
import { z } from 'zod'

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

export type UserRecord = z.output<typeof userSchema>
export type SessionRecord = z.output<typeof sessionSchema>
export type RefreshTokenRecord = z.output<typeof refreshTokenSchema>
export type CodeRecord = z.output<typeof codeSchema>
export type ResetTokenRecord = z.output<typeof resetTokenSchema>
export type StepRecord = z.output<typeof stepSchema>
/** A code's fields, without the store's own bookkeeping (what a decoy is). */
export type CodeFields = CodeRecord

/** Every record of the product, by collection: what a data file, `GET /__mock/state` and an import carry. */
export const recordSchemas = {
  users: userSchema,
  sessions: sessionSchema,
  refreshTokens: refreshTokenSchema,
  codes: codeSchema,
  resetTokens: resetTokenSchema,
  steps: stepSchema,
} as const

export type CollectionName = keyof typeof recordSchemas
export type ProductSnapshot = { [K in CollectionName]: z.output<(typeof recordSchemas)[K]>[] }
