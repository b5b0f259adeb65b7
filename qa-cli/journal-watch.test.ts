// The watch loop against an in-memory journal that behaves as the server's (mock-server/src/pipeline/journal.ts).
import { expect, test } from 'vitest'
import { MockClientError, type JournalEntry } from '#api/mock-client.ts'
import { pollJournal, watchJournal, type WatchOptions } from './journal-watch.ts'

function createFakeJournal() {
  let entries: JournalEntry[] = []
  let seq = 0
  let life = 0 // a server process: its calls carry other times than the last one's
  let failure: Error | null = null
  let failed = 0
  const waiters = new Set<() => void>()
  return {
    call(path: string, email = 'ada@example.com') {
      seq += 1
      const at = new Date(Date.UTC(2030, 0, 1, life, 0, seq)).toISOString()
      entries.push({ seq, method: 'GET', path, status: 200, at, email })
    },
    reset: () => void (entries = []),
    restart() {
      entries = []
      seq = 0
      life += 1
    },
    fail: (error: Error | null) => void (failure = error),
    /** Resolves once `count` reads have failed in all. */
    failedReads: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => failed >= count && (waiters.delete(check), resolve())
        waiters.add(check)
        check()
      }),
    read: async (since?: number) => {
      if (failure) {
        failed += 1
        for (const check of waiters) check()
        throw failure
      }
      return entries.filter((entry) => since === undefined || entry.seq > since)
    },
  }
}

const paths = (entries: JournalEntry[]) => entries.map((entry) => entry.path)

test('a poll returns the calls after the last one seen', async () => {
  const journal = createFakeJournal()
  journal.call('/a')
  const first = await pollJournal(null, journal.read)
  expect(paths(first.entries)).toEqual(['/a'])
  journal.call('/b')
  journal.call('/c')
  const next = await pollJournal(first.last, journal.read)
  expect(paths(next.entries)).toEqual(['/b', '/c'])
  expect(next.notice).toBeUndefined()
  expect(await pollJournal(next.last, journal.read)).toEqual({ entries: [], last: next.last })
})

test('after a reset the calls made since are all shown (numbering went on)', async () => {
  const journal = createFakeJournal()
  journal.call('/a')
  const { last } = await pollJournal(null, journal.read)
  journal.reset()
  const emptied = await pollJournal(last, journal.read)
  expect(emptied).toEqual({
    entries: [],
    last: null,
    notice: 'The journal was emptied (a reset, or a restart).',
  })
  journal.call('/b')
  expect(paths((await pollJournal(emptied.last, journal.read)).entries)).toEqual(['/b'])
  journal.reset()
  journal.call('/c')
  const poll = await pollJournal(last, journal.read)
  expect(paths(poll.entries)).toEqual(['/c'])
  expect(poll.notice).toBe('The journal was emptied (a reset, or a restart).')
})

test('after a restart whose numbers already passed the last one seen, every call of the new server is shown', async () => {
  const journal = createFakeJournal()
  journal.call('/old-1')
  journal.call('/old-2')
  const { last } = await pollJournal(null, journal.read)
  journal.restart()
  for (const path of ['/new-1', '/new-2', '/new-3']) journal.call(path)
  const poll = await pollJournal(last, journal.read)
  expect(paths(poll.entries)).toEqual(['/new-1', '/new-2', '/new-3'])
  expect(poll.notice).toBe('The mock server restarted: its journal starts again.')
})

const OPTIONS: WatchOptions = { pollMs: 1, retryMs: 1, server: 'http://127.0.0.1:4010' }

/** Runs the watch, collecting what it prints; `until` waits for a line (no sleeping: each line wakes it). */
function startWatch(journal: ReturnType<typeof createFakeJournal>, options: Partial<WatchOptions> = {}) {
  const lines: string[] = []
  const waiters = new Set<() => void>()
  const say = (line: string) => {
    lines.push(line)
    for (const wake of waiters) wake()
  }
  const stop = new AbortController()
  const done = watchJournal(
    { read: journal.read, onEntry: (entry) => say(entry.path), onNotice: say, signal: stop.signal },
    { ...OPTIONS, ...options },
  )
  const until = (line: string | RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!lines.some((one) => (typeof line === 'string' ? one === line : line.test(one)))) return
        waiters.delete(check)
        resolve()
      }
      waiters.add(check)
      check()
    })
  return { lines, until, stop: () => stop.abort(), done }
}

test('watch shows each new call once, says once that the server is gone, and carries on after its restart', async () => {
  const journal = createFakeJournal()
  journal.call('/before-the-watch')
  const watch = startWatch(journal)
  await watch.until(/^Watching the journal of http:\/\/127\.0\.0\.1:4010 \(Ctrl-C to stop\)\.$/)
  journal.call('/first')
  await watch.until('/first')
  journal.fail(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))
  await journal.failedReads(3) // three polls while it is gone: one notice
  journal.restart()
  journal.call('/after-restart')
  journal.fail(null)
  await watch.until('/after-restart')
  watch.stop()
  await watch.done
  expect(watch.lines.slice(1)).toEqual([
    '/first',
    'Lost the mock server at http://127.0.0.1:4010 (ECONNREFUSED); trying again every 1ms.',
    'The mock server answers again.',
    'The mock server restarted: its journal starts again.',
    '/after-restart',
  ])
})

test('watch waits for a server not started yet, shows one account (as the server compares addresses) and what --since asks', async () => {
  const journal = createFakeJournal()
  journal.fail(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))
  const watch = startWatch(journal, { email: ' ADA@example.com', since: '1' })
  await watch.until(/^Waiting for the mock server at/)
  journal.call('/one')
  journal.call('/two')
  journal.call('/grace', 'grace@example.com')
  journal.fail(null)
  await watch.until('/two')
  journal.call('/grace-again', 'grace@example.com')
  journal.call('/three')
  await watch.until('/three')
  watch.stop()
  await watch.done
  expect(watch.lines.slice(1)).toEqual([
    'The mock server answers again.',
    'Watching the journal of http://127.0.0.1:4010 for ada@example.com (Ctrl-C to stop).',
    '/two',
    '/three',
  ])
})

test('a refusal ends the watch with the server’s error', async () => {
  const journal = createFakeJournal()
  journal.fail(
    new MockClientError('Failed to call GET /__mock/requests: no.', 401, 'control_token_required', {}),
  )
  await expect(startWatch(journal).done).rejects.toMatchObject({ code: 'control_token_required' })
})
