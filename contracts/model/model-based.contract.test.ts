// Sequences no one wrote: random command sequences over accounts, codes, sessions and refresh families, each answer
// checked against the model (contracts/model/model.ts) and against the documents (docs/contract-suite.md,
// "Model-based runs"). MODEL_SEED replays a run, MODEL_RUNS sets how many.
import { expect, test } from 'vitest'
import { newClientAddress } from '#contracts/support/client-address.ts'
import { createTestServer } from '#contracts/fixtures.ts'
import { CONTRACT_STORE } from '#contracts/support/test-server.ts'
import { TARGET_URL } from '#contracts/support/target.ts'
import { formatFigures, readModelOptions } from '#contracts/model/figures.ts'
import { runModel, type ModelServer } from '#contracts/model/run.ts'

/**
 * Runs without MODEL_RUNS: on memory a run costs about 0.1 s; on a SQL store or a target about 1 s (each call is a
 * round trip to the database, and a reset re-seeds it), so they get fewer and npm test stays within its minutes.
 */
const CHEAP = CONTRACT_STORE === 'memory' && !TARGET_URL
const options = readModelOptions(process.env, CHEAP ? 12 : 4)
/** The budget leaves room for a loaded machine, a SQL store and a far target. */
const TIMEOUT_MS = Math.max(30_000, options.runs * (CHEAP ? 1_000 : 4_000))
/** Runs that share a SQL store or a target between resets: 4 runs of at most 50 calls stay under every limit. */
const RUNS_PER_RESET = 4

test(
  'random sequences of sign-up, codes, sign-in, refresh, reuse, log-out and protected calls agree with the model',
  async ({ task }) => {
    const first = await createTestServer()
    const control = first.api.noControl === undefined
    // Without /__mock, the codes the target mails may still be read (CONTRACT_SMTP_PORT), through the same client.
    const codes = control || first.api.codes !== undefined
    const serverOf = ({ api, mock }: typeof first): ModelServer => ({ api, mock: codes ? mock : null })
    // On memory a fresh app per run is cheaper than a reset (which re-seeds the accounts). A SQL store or a target
    // is reset only every few runs (a reset takes seconds on PGlite); runs between share it, each with addresses of
    // its own, and stay far below the per-client limits (100 calls of a kind per 15 minutes).
    let run = 0
    const serverForRun = async (): Promise<ModelServer> => {
      const index = run++
      // Each run is a visitor of its own, so a long run against a target without a reset stays under its per-client
      // limits (contracts/support/client-address.ts).
      newClientAddress()
      if (index === 0 || (!CHEAP && index % RUNS_PER_RESET !== 0)) return serverOf(first)
      if (!CHEAP) {
        if (control) await first.mock.reset()
        return serverOf(first)
      }
      return serverOf(await createTestServer())
    }
    const target = TARGET_URL ?? `in-process (${CONTRACT_STORE})`
    const figures = await runModel({ ...options, serverForRun, control, codes, target })
    task.meta.modelRun = figures
    process.stdout.write(`${formatFigures(figures)}\n`)
    expect(figures.commands).toBeGreaterThan(0)
  },
  TIMEOUT_MS,
)
