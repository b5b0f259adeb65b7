// What a test reads of its server to check what its calls changed: the state (`GET /__mock/state`'s MockState, every
// secret a fingerprint) and the request journal. In-process it calls the function that answers GET /__mock/state
// (mock-server/src/control/state.ts) and reads the journal straight from the app, which costs no request; against a
// CONTRACT_TARGET it reads both through /__mock (docs/decisions/016-contract-target.md). Either way the test compares
// the same shape.
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
    // The agent itself rather than the mock client: these reads come around every call of a suite, and the client's
    // extra layer (openapi-fetch over the agent) cost a millisecond each.
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
    state: async () => JSON.stringify(readMockState(ops)),
    journalSince: async (seq) => ops.journal.list({ since: String(seq) }),
    lastSeq: async () => ops.journal.list().at(-1)?.seq ?? 0,
  }
}
