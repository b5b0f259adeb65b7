// The model-based run against a server with a planted fault: a log-out that answers as usual (200, the cookie
// cleared) but ends nothing on the server, a fault the hand-written checks once let pass (docs/contract-suite.md,
// "Model-based runs"). The run must fail, shrink to a short sequence that logs out and then finds the session
// alive, and print the line that replays it.
import type { RequestListener } from 'node:http'
import { expect, test } from 'vitest'
import { createTestServer, mockOf, requireOwnServer } from '#contracts/fixtures.ts'
import { createContractAgent } from '#contracts/support/api.ts'
import { runModel } from '#contracts/model/run.ts'

/** Answers every log-out as the contract says, without passing it to the server. */
const logOutThatEndsNothing =
  (app: RequestListener): RequestListener =>
  (req, res) => {
    if (req.method !== 'DELETE' || !req.url?.startsWith('/api/_auth/session')) return app(req, res)
    req.resume()
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Set-Cookie': 'sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    })
    res.end(JSON.stringify({ loggedOut: true }))
  }

test('a log-out that ends nothing on the server fails the model-based run, shrunk, with its replay line', async () => {
  requireOwnServer('plants a fault in the in-process app')
  const { app, controlHeaders } = await createTestServer()
  const api = createContractAgent(logOutThatEndsNothing(app), { headers: controlHeaders })
  const mock = mockOf(api)
  // The runs share the server, each with addresses of its own: a reset per run takes seconds on PGlite.
  const serverForRun = () => Promise.resolve({ api, mock })
  // Seed 2 meets the fault in its third run; any seed does within a few.
  const run = runModel({ serverForRun, control: true, target: 'a planted fault', runs: 20, seed: 2 })
  const failure = await run.then(
    () => null,
    (error: unknown) => (error as Error).message,
  )
  expect(failure).toContain('The model-based run against a planted fault failed')
  const steps = failure!.split('\n').filter((line) => /^ {2}\d+\. /.test(line))
  expect(steps.some((step) => step.includes('logOut('))).toBe(true)
  expect(steps.length).toBeLessThanOrEqual(6)
  expect(failure).not.toMatch(/eyJ[\w-]+\.[\w-]+/) // no token in the message
  expect(failure).toMatch(
    /Replay it: MODEL_SEED=2 MODEL_PATH=[\d:]+ MODEL_REPLAY_PATH='[^']+' npx vitest run/,
  )
})
