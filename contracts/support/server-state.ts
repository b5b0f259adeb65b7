// The server's state and journal, read to check what a test's calls changed.
// In-process it reads the app directly; against a CONTRACT_TARGET, through /__mock
// (docs/decisions/016-contract-target.md). Either way the shape is the same.
import type { TestServer } from '#contracts/fixtures.ts'
import type { JournalEntry } from '#api/mock-client.ts'
import { TARGET_URL } from '#contracts/support/target.ts'
import { readMockState } from '#mock-server/control/state.ts'

export interface StateReader {
  /** The state as JSON text: cheap to keep and to compare. */
  state(): Promise<string>
  /** The journal's entries after `seq`, oldest first. */
  journalSince(seq: number): Promise<JournalEntry[]>
  /** The journal's last seq so far, 0 when it is empty. */
  lastSeq(): Promise<number>
}

/**
 * @example
 * const reader = createStateReader(server)
 * const before = await reader.state()
 * await server.api.post('/api/auth/login').send({}).expect(400)
 * expect(await reader.state()).toBe(before)
 */
export function createStateReader(server: TestServer): StateReader {
  if (TARGET_URL) {
    // The agent, not the mock client: these reads surround every call, and the client's layer cost 1 ms each.
    const { api, mock } = server
    return {
      state: async () => (await api.get('/__mock/state').expect(200)).text,
      journalSince: async (seq) =>
        ((await api.get(`/__mock/requests?since=${seq}`).expect(200)).body as { requests: JournalEntry[] })
          .requests,
      lastSeq: () => mock.lastSeq(),
    }
  }
  const { ops } = server.app.core
  return {
    state: async () => JSON.stringify(await readMockState(ops)),
    journalSince: async (seq) => ops.journal.list({ since: String(seq) }),
    lastSeq: async () => (await ops.journal.list()).at(-1)?.seq ?? 0,
  }
}
