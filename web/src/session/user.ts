// The user normaliser (docs/behaviour.md: Stored state): accepts `email` or `emailId`, `id` or `userId`, and `name`. Pure.
import type { components } from '#api/openapi.gen.ts'

export type User = components['schemas']['User']

export type AnyUser = components['schemas']['AnyUser']

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null

/**
 * Reads a user in either field naming; null when there is no user (no object, or neither id nor e-mail).
 * @example
 * normalizeUser({ userId: 'u1', emailId: 'a@b.c', name: 'Ada' }) // { id: 'u1', email: 'a@b.c', name: 'Ada' }
 */
export function normalizeUser(raw: unknown): User | null {
  if (typeof raw !== 'object' || raw === null) return null
  const record = raw as Record<string, unknown>
  const id = text(record.id) ?? text(record.userId)
  const email = text(record.email) ?? text(record.emailId)
  if (id === null && email === null) return null
  return { id: id ?? '', email: email ?? '', name: text(record.name) ?? '' }
}
