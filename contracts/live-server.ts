// A mock server listening on 127.0.0.1 for the tests that send many requests at once (or in a long
// stream): one server and its connections instead of supertest's server per request.
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createApp, type AppOptions, type MockApp } from '#mock-server/app.ts'
import { createContractAgent, type ContractAgent } from '#contracts/support/api.ts'
import { TEST_HASHER } from '#contracts/fixtures.ts'

export interface LiveServer {
  app: MockApp
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  /** Validated against the documents and recorded for the coverage table, like every contract call. */
  api: ContractAgent
  close(): Promise<void>
}

/**
 * @example
 * const live = await startLiveServer({ refreshGraceMs: 60_000 })
 * await live.api.get('/api/_auth/session').expect(200)
 * await live.close()
 */
export async function startLiveServer(options: AppOptions = {}): Promise<LiveServer> {
  const app = createApp({ hasher: TEST_HASHER, ...options })
  await app.core.ready
  const server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    app,
    origin,
    api: createContractAgent(origin),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
