// `npm run scenario -- watch`: follows the request journal by polling with the last seq seen.
// A restart renumbers the journal, so each poll also checks the last call shown is still there.
// An unreachable server is polled until it answers; a refusal ends the watch.
import { setTimeout as delay } from 'node:timers/promises'
import { MockClientError, type JournalEntry } from '#api/mock-client.ts'
import { parseSince } from '#api/control-values.ts'
import { formatDuration } from './scenario-format.ts'

/** The journal after `since` (a seq), or all of it. */
export type ReadJournal = (since?: number) => Promise<JournalEntry[]>

export interface PollResult {
  /** The calls not shown yet, oldest first (every account's). */
  entries: JournalEntry[]
  /** The newest call seen, or null when the journal is empty. */
  last: JournalEntry | null
  notice?: string
}

const sameCall = (a: JournalEntry, b: JournalEntry) =>
  a.seq === b.seq && a.at === b.at && a.method === b.method && a.path === b.path

/**
 * One poll: the calls after `last`, found by asking for `last` itself along with them.
 * @example await pollJournal(null, read) // the whole journal (after a reset or a restart, or when it was empty)
 */
export async function pollJournal(last: JournalEntry | null, read: ReadJournal): Promise<PollResult> {
  if (last === null) {
    const all = await read()
    return { entries: all, last: all.at(-1) ?? null }
  }
  const recent = await read(last.seq - 1)
  if (recent[0] && sameCall(recent[0], last)) {
    const entries = recent.slice(1)
    return { entries, last: entries.at(-1) ?? last }
  }
  const all = await read()
  const restarted = all[0] !== undefined && all[0].seq <= last.seq
  return {
    entries: all,
    last: all.at(-1) ?? null,
    notice: restarted
      ? 'The mock server restarted: its journal starts again.'
      : 'The journal was emptied (a reset, or a restart).',
  }
}

export interface WatchOptions {
  /** Only this account's calls (compared as the server compares them: trimmed, lower-case). */
  email?: string | undefined
  /** Show the calls after this seq or date-time first; without it, only calls made from now on. */
  since?: string | undefined
  pollMs: number
  retryMs: number
  /** The server's address as people may see it (no user info). */
  server: string
}

export interface WatchIo {
  read: ReadJournal
  onEntry(entry: JournalEntry): void
  onNotice(text: string): void
  /** Ends the watch (Ctrl-C): the loop stops at its next wait. */
  signal: AbortSignal
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause
  return typeof cause?.code === 'string' ? cause.code : (error as Error).message
}

/** The calls of the journal read at start that `since` asks to show. */
function backlog(all: JournalEntry[], since: string | undefined): JournalEntry[] {
  if (since === undefined) return []
  const after = parseSince(since)
  return all.filter((entry) => ('seq' in after ? entry.seq > after.seq : Date.parse(entry.at) >= after.at))
}

/** Watches until the signal aborts; throws a MockClientError when the server refuses. */
export async function watchJournal(io: WatchIo, options: WatchOptions): Promise<void> {
  const email = options.email?.trim().toLowerCase()
  const show = (entries: JournalEntry[]) => {
    for (const entry of entries) if (email === undefined || entry.email === email) io.onEntry(entry)
  }
  let last: JournalEntry | null | undefined // undefined: not read yet
  let down: string | null = null
  while (!io.signal.aborted) {
    try {
      const started = last === undefined
      const poll = started ? await startWatch(io.read, options.since) : await pollJournal(last!, io.read)
      if (down !== null) io.onNotice('The mock server answers again.')
      if (started) io.onNotice(describeWatch(options, email))
      if (poll.notice) io.onNotice(poll.notice)
      down = null
      last = poll.last
      show(poll.entries)
    } catch (error) {
      if (io.signal.aborted) break
      if (error instanceof MockClientError) throw error
      const reason = describeFailure(error)
      if (down === null) {
        const verb = last === undefined ? 'Waiting for' : 'Lost'
        io.onNotice(
          `${verb} the mock server at ${options.server} (${reason}); trying again every ${formatDuration(options.retryMs)}.`,
        )
      }
      down = reason
    }
    await delay(down === null ? options.pollMs : options.retryMs, undefined, { signal: io.signal }).catch(
      () => undefined,
    )
  }
}

async function startWatch(read: ReadJournal, since: string | undefined): Promise<PollResult> {
  const all = await read()
  return { entries: backlog(all, since), last: all.at(-1) ?? null }
}

function describeWatch(options: WatchOptions, email: string | undefined): string {
  const whose = email ? ` for ${email}` : ''
  return `Watching the journal of ${options.server}${whose} (Ctrl-C to stop).`
}
