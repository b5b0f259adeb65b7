// Stand-ins for the supporting services: the error-reporting ingest (Sentry envelopes) and the session
// recorder's ingest (OpenReplay batches). What arrives is kept, summarised, for tests and QA to read: in this
// process (createMemorySinkStore) or in the database every instance shares (compose/sql-sinks.ts).
import type { components } from '#api/control.gen.ts'
import type { Clock } from '../shared/clock.ts'
import { createId, createRandomToken } from '../shared/crypto.ts'
import { createBoundedLog } from './bounded-log.ts'
import {
  BatchTooLargeError,
  inflateBatch,
  noGunzip,
  parseEnvelope,
  readRecorderMessages,
  summariseEvent,
  UnreadableError,
  type Gunzip,
  type SentryEvent,
} from './sink-readers.ts'

export { BatchTooLargeError, UnreadableError, type Gunzip, type SentryEvent } from './sink-readers.ts'
export type RecorderSession = components['schemas']['RecorderSession']

/** Entries each sink keeps at most, besides their total size (docs/security/hardening.md, "Smaller rules"). */
export const MAX_SINK_ITEMS = 1000

/** What each sink keeps at most: the newest entries whose JSON texts add up to at most `maxBytes`. */
export interface SinkLimits {
  maxBytes: number
  maxItems: number
}

/**
 * Where the sinks keep what arrived, oldest first, within SinkLimits. A recording session is found by its upload
 * token; a session dropped for room takes its token along, so its next batch is a 401 and the recorder starts anew.
 */
export interface SinkStore {
  addEvents(events: readonly SentryEvent[]): Promise<void>
  listEvents(): Promise<SentryEvent[]>
  /** The session `token` uploads to; null when it is unknown or was dropped. */
  findSession(token: string): Promise<RecorderSession | null>
  addSession(token: string, session: RecorderSession): Promise<void>
  /** Applies `change` to the session of `token`, one change at a time, keeping its age; false when unknown. */
  updateSession(token: string, change: (session: RecorderSession) => void): Promise<boolean>
  listSessions(): Promise<RecorderSession[]>
  clear(): Promise<void>
}

const copySession = (session: RecorderSession): RecorderSession => ({
  ...session,
  metadata: { ...session.metadata },
})

/**
 * @example
 * const store = createMemorySinkStore({ maxBytes: 8 * 1024 * 1024, maxItems: MAX_SINK_ITEMS })
 * await store.addEvents([{ event_id: 'e1', type: 'event', received_at: '2026-01-01T00:00:00.000Z' }])
 */
export function createMemorySinkStore(limits: SinkLimits): SinkStore {
  const events = createBoundedLog<SentryEvent>(limits)
  const tokens = new Map<string, RecorderSession>()
  const tokenOf = new Map<RecorderSession, string>()
  const sessions = createBoundedLog<RecorderSession>(limits, (session) => {
    tokens.delete(tokenOf.get(session)!)
    tokenOf.delete(session)
  })
  return {
    async addEvents(added) {
      for (const event of added) events.add({ ...event })
    },
    listEvents: async () => events.items().map((event) => ({ ...event })),
    async findSession(token) {
      const session = tokens.get(token)
      return session ? copySession(session) : null
    },
    async addSession(token, session) {
      const kept = copySession(session)
      tokens.set(token, kept)
      tokenOf.set(kept, token)
      sessions.add(kept)
    },
    async updateSession(token, change) {
      const session = tokens.get(token)
      if (!session) return false
      change(session)
      sessions.resize(session)
      return true
    },
    listSessions: async () => sessions.items().map(copySession),
    async clear() {
      events.clear()
      sessions.clear()
      tokens.clear()
      tokenOf.clear()
    },
  }
}

export interface Sinks {
  /** Keeps the envelope's events; UnreadableError when it cannot be read. */
  receiveEnvelope(bytes: Uint8Array): Promise<string>
  events(): Promise<SentryEvent[]>
  startRecording(input: {
    projectKey: string
    token?: string | null
    userID?: string | null
    metadata?: object | null
  }): Promise<{ token: string; session: RecorderSession }>
  /**
   * Applies a batch to the session of `token`; false when the token is unknown. UnreadableError or
   * BatchTooLargeError for a body it cannot take, when the token is known.
   */
  receiveBatch(token: string, bytes: Uint8Array, gzip: boolean): Promise<boolean>
  sessions(): Promise<RecorderSession[]>
  clear(): Promise<void>
}

/** Runs a reader; what it fails with is the request's fault (UnreadableError), a batch too large excepted. */
function readable<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof BatchTooLargeError || error instanceof UnreadableError) throw error
    throw new UnreadableError('Failed to read what arrived at a sink.', { cause: error })
  }
}

function applyMessages(session: RecorderSession, messages: ReturnType<typeof readRecorderMessages>) {
  session.batches += 1
  session.messages += messages.length
  for (const message of messages) {
    if (message.type === 28) session.user_id = message.strings[0] || null
    if (message.type === 30) session.metadata[message.strings[0]!] = message.strings[1]!
  }
}

export function createSinks(clock: Clock, store: SinkStore, gunzip: Gunzip = noGunzip): Sinks {
  const now = () => new Date(clock.now()).toISOString()
  return {
    async receiveEnvelope(bytes) {
      const { header, items } = readable(() => parseEnvelope(bytes))
      const receivedAt = now()
      await store.addEvents(
        items.map((item) => summariseEvent(item.type, item.payload, header.event_id, receivedAt)),
      )
      return typeof header.event_id === 'string' ? header.event_id : createId()
    },
    events: () => store.listEvents(),
    async startRecording({ projectKey, token, userID, metadata }) {
      const existing = token ? await store.findSession(token) : null
      if (existing) return { token: token!, session: existing }
      const session: RecorderSession = {
        id: String(Math.floor(clock.now() * 1000 + Math.random() * 1000)),
        project_key: projectKey,
        started_at: now(),
        user_id: userID || null,
        metadata: Object.fromEntries(
          Object.entries(metadata ?? {}).map(([key, value]) => [key, String(value)]),
        ),
        batches: 0,
        messages: 0,
      }
      const fresh = createRandomToken()
      await store.addSession(fresh, session)
      return { token: fresh, session }
    },
    async receiveBatch(token, bytes, gzip) {
      // A host may already have inflated the body (Express does): trust the gzip magic, not the header.
      const compressed = gzip && bytes[0] === 0x1f && bytes[1] === 0x8b
      let messages: ReturnType<typeof readRecorderMessages>
      try {
        messages = readable(() => readRecorderMessages(compressed ? inflateBatch(bytes, gunzip) : bytes))
      } catch (error) {
        // An unknown token is answered as such whatever its body; the store is asked only then.
        if (!(await store.findSession(token))) return false
        throw error
      }
      return store.updateSession(token, (session) => applyMessages(session, messages))
    },
    sessions: () => store.listSessions(),
    clear: () => store.clear(),
  }
}
