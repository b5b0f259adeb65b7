// The memory store: @msw/data collections, one set per server (the default of `npm run mock`, the unit tests and
// the MSW demo). Each atomic step of the port checks and writes with no await between them, or, where the
// library's write is asynchronous, under a lock on the record, so two calls never both win one step.
import { Collection } from '@msw/data'
import type { z } from 'zod'
import { createKeyedLock } from '../domain/locks.ts'
import { IndexedCollection } from './indexed-collection.ts'
import type { ProductStore, SessionWithUser } from './port.ts'
import {
  codeSchema,
  recordSchemas,
  refreshTokenSchema,
  resetTokenSchema,
  sessionSchema,
  stepSchema,
  userSchema,
  type CollectionName,
  type ProductSnapshot,
  type SessionRecord,
} from './records.ts'

function createCollections() {
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

type Collections = ReturnType<typeof createCollections>

/** A plain copy: the domain never holds the collection's own record, so no write bypasses the port. Writes go by
 * the record found (the library's key), never by a query, which would scan every record. */
const copy = <T extends object>(record: T | undefined | null): T | null => (record ? { ...record } : null)

export function createMemoryStore(): ProductStore {
  const c = createCollections()
  const lock = createKeyedLock()
  return {
    users: createUsers(c, lock),
    sessions: createSessions(c, lock),
    refreshTokens: createRefreshTokens(c, lock),
    codes: createCodes(c, lock),
    resetTokens: createResetTokens(c, lock),
    steps: createSteps(c),
    // The records themselves, not copies: @msw/data writes a new version on update, so a reader's fingerprint cache
    // (control/state.ts) keyed by record stays right. Callers never write to them.
    snapshot: async () =>
      Object.fromEntries(
        Object.entries(c).map(([name, collection]) => [name, collection.all()]),
      ) as unknown as ProductSnapshot,
    async restore(snapshot) {
      for (const name of Object.keys(recordSchemas) as CollectionName[]) {
        const collection = c[name] as unknown as Collection<z.ZodType>
        collection.clear()
        for (const record of snapshot[name] ?? []) await collection.create(record)
      }
    },
    async clear() {
      for (const collection of Object.values(c)) collection.clear()
    },
  }
}

type Lock = ReturnType<typeof createKeyedLock>

function createUsers(c: Collections, lock: Lock): ProductStore['users'] {
  return {
    byId: async (id) => copy(c.users.findBy('id', id)),
    byEmail: async (email) => copy(c.users.findBy('email', email)),
    create: (user) =>
      lock.run(`user:${user.email}`, async () =>
        c.users.findBy('email', user.email) ? null : copy(await c.users.create(user)),
      ),
    async update(id, patch) {
      const user = c.users.findBy('id', id)
      if (!user) return null
      return copy(await c.users.update(user, { data: (draft) => void Object.assign(draft, patch) }))
    },
    listUnverified: async (keep) =>
      c.users
        .findMany((q) => q.where((user) => !user.verified && !keep.has(user.email)))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(({ id, email, createdAt }) => ({ id, email, createdAt })),
    deleteUnverified: async (id) => {
      const user = c.users.findBy('id', id)
      if (!user || user.verified || c.codes.findFirst((q) => q.where({ email: user.email }))) return 0
      c.users.delete((q) => q.where({ id }))
      const steps = c.steps.deleteMany((q) => q.where({ userId: id })).length
      const resets = c.resetTokens.deleteMany((q) => q.where({ userId: id })).length
      return 1 + steps + resets
    },
  }
}

function withUser(c: Collections, session: SessionRecord | null): SessionWithUser | null {
  return session && { session, user: copy(c.users.findBy('id', session.userId)) }
}

function createSessions(c: Collections, lock: Lock): ProductStore['sessions'] {
  return {
    create: async (session) => ({ ...(await c.sessions.create(session)) }),
    byId: async (id) => copy(c.sessions.findBy('id', id)),
    byCookieHash: async (cookieHash) => copy(c.sessions.findBy('cookieHash', cookieHash)),
    byIdWithUser: async (id) => withUser(c, copy(c.sessions.findBy('id', id))),
    byCookieHashWithUser: async (cookieHash) =>
      withUser(c, copy(c.sessions.findBy('cookieHash', cookieHash))),
    listLive: async (userId) =>
      c.sessions.findMany((q) => q.where({ userId, revokedAt: null })).map((record) => ({ ...record })),
    revoke: (id, at, reason) =>
      lock.run(`session:${id}`, async () => {
        const live = c.sessions.findBy('id', id)
        if (!live || live.revokedAt !== null) return false
        await c.sessions.update(live, {
          data(draft) {
            draft.revokedAt = at
            draft.revokedReason = reason
          },
        })
        // A revoked family's tokens can never be used again: drop the sealed pairs at once.
        await c.refreshTokens.updateMany((q) => q.where({ sessionId: id }), {
          data: (draft) => void (draft.graceBox = null),
        })
        return true
      }),
    async purgeEnded(endedBy) {
      let removed = 0
      const ended = c.sessions.findMany((q) =>
        q.where((session) => Math.min(session.expiresAt, session.revokedAt ?? Infinity) <= endedBy),
      )
      for (const session of ended) {
        removed += c.refreshTokens.deleteMany((q) => q.where({ sessionId: session.id })).length
        removed += Number(c.sessions.delete((q) => q.where({ id: session.id })) !== undefined)
      }
      return removed
    },
  }
}

function createRefreshTokens(c: Collections, lock: Lock): ProductStore['refreshTokens'] {
  return {
    create: async (token) => ({ ...(await c.refreshTokens.create(token)) }),
    byHash: async (hash) => copy(c.refreshTokens.findBy('hash', hash)),
    async byHashWithSession(hash) {
      const token = copy(c.refreshTokens.findBy('hash', hash))
      return token && { token, session: copy(c.sessions.findBy('id', token.sessionId)) }
    },
    byId: async (id) => copy(c.refreshTokens.findBy('id', id)),
    rotate: ({ parentId, child, retiredAt, graceBox }) =>
      lock.run(`refresh:${parentId}`, async () => {
        const parent = c.refreshTokens.findBy('id', parentId)
        if (!parent || parent.retiredAt !== null) return false
        await c.refreshTokens.create(child)
        await c.refreshTokens.update(parent, {
          data(draft) {
            draft.retiredAt = retiredAt
            draft.childId = child.id
            draft.graceBox = graceBox
          },
        })
        return true
      }),
  }
}

function createCodes(c: Collections, lock: Lock): ProductStore['codes'] {
  const codeLock = (email: string, purpose: string) => `code:${email}:${purpose}`
  return {
    async latest(email, purpose) {
      // Sorted here: @msw/data applies `take` before `orderBy`.
      const codes = c.codes.findMany((q) => q.where({ email, purpose }))
      return copy(
        codes.reduce<(typeof codes)[number] | undefined>(
          (a, b) => (!a || b.sentAt >= a.sentAt ? b : a),
          undefined,
        ),
      )
    },
    listUnused: async (email, purpose, now) =>
      c.codes
        .findMany((q) => q.where({ email, purpose, usedAt: null }).where((code) => code.expiresAt > now))
        .map((record) => ({ ...record })),
    issue: (code) =>
      lock.run(codeLock(code.email, code.purpose), async () => {
        await c.codes.updateMany(
          (q) => q.where({ email: code.email, purpose: code.purpose, supersededAt: null }),
          {
            data: (draft) => void (draft.supersededAt = code.sentAt),
          },
        )
        await c.codes.create(code)
      }),
    use: (id, now) =>
      lock.run(`code-id:${id}`, async () => {
        const code = c.codes.findFirst((q) => q.where({ id }))
        const usable =
          code && code.usedAt === null && code.supersededAt === null && !code.burned && code.expiresAt > now
        if (!usable) return false
        await c.codes.update(code, { data: (draft) => void (draft.usedAt = now) })
        return true
      }),
    recordWrong: (id, maxAttempts) =>
      lock.run(`code-id:${id}`, async () => {
        const code = c.codes.findFirst((q) => q.where({ id }))
        if (!code || code.burned) return null
        const attempts = code.attempts + 1
        const burned = attempts >= maxAttempts
        await c.codes.update(code, {
          data: (draft) => void Object.assign(draft, { attempts, burned }),
        })
        return { attempts, burned }
      }),
    async setSignUps(email, signup) {
      await c.codes.updateMany((q) => q.where({ email, purpose: 'signup', usedAt: null }), {
        data: (draft) => void (draft.signup = signup),
      })
    },
    anyFor: async (email) => c.codes.findFirst((q) => q.where({ email })) !== undefined,
    purgeDone: async (now, cooldownMs) =>
      c.codes.deleteMany((q) => q.where((code) => code.expiresAt <= now && code.sentAt + cooldownMs <= now))
        .length,
  }
}

function createResetTokens(c: Collections, lock: Lock): ProductStore['resetTokens'] {
  return {
    async replace(token) {
      c.resetTokens.deleteMany((q) => q.where({ userId: token.userId }))
      await c.resetTokens.create(token)
    },
    byHash: async (hash) => copy(c.resetTokens.findFirst((q) => q.where({ hash }))),
    use: (hash, now) =>
      lock.run(`reset:${hash}`, async () => {
        const token = c.resetTokens.findFirst((q) => q.where({ hash }))
        if (!token || token.usedAt !== null || token.expiresAt <= now) return null
        await c.resetTokens.update(token, { data: (draft) => void (draft.usedAt = now) })
        return token.userId
      }),
    async deleteFor(userId) {
      c.resetTokens.deleteMany((q) => q.where({ userId }))
    },
    purgeDone: async (now) =>
      c.resetTokens.deleteMany((q) => q.where((token) => token.expiresAt <= now || token.usedAt !== null))
        .length,
  }
}

function createSteps(c: Collections): ProductStore['steps'] {
  return {
    async createAll(steps) {
      for (const step of steps) await c.steps.create(step)
    },
    list: async (userId) =>
      c.steps
        .findMany((q) => q.where({ userId }), { orderBy: { position: 'asc' } })
        .map((record) => ({ ...record })),
    update: async (userId, id, patch) =>
      copy(
        await c.steps.update((q) => q.where({ id, userId }), {
          data: (draft) => void Object.assign(draft, patch),
        }),
      ),
  }
}
