// Mutation testing of the mock server's rules (`npm run test:mutation:server`): Stryker mutates these modules and
// runs the server's unit tests and the in-process contract suite (vitest.mutation-server.config.ts) against each
// mutant; then `scripts/mutation-report.ts stryker.server.config.mjs` holds each file to its bar below and every
// survivor to stryker-equivalents.server.json (docs/benchmarks.md, "npm run test:mutation").
import client from './stryker.config.mjs'

/** Tokens, signing keys, refresh families, codes, sign-ups and lock-out: the rules the issue holds to 95 %. */
const CORE_RULES = [
  'mock-server/src/product/domain/tokens.ts',
  'mock-server/src/product/domain/token-keys.ts',
  'mock-server/src/product/domain/sessions.ts',
  'mock-server/src/product/domain/codes.ts',
  'mock-server/src/product/domain/sign-ups.ts',
  'mock-server/src/product/domain/lockout.ts',
  'mock-server/src/product/domain/pending-passwords.ts',
]

/** The domain's other rules: rate limits, decoys, guesses, passwords, accounts, counters, purges. */
const DOMAIN_RULES = [
  'mock-server/src/product/domain/rate-limit.ts',
  'mock-server/src/product/domain/decoys.ts',
  'mock-server/src/product/domain/guess-log.ts',
  'mock-server/src/product/domain/passwords.ts',
  'mock-server/src/product/domain/users.ts',
  'mock-server/src/product/domain/counters.ts',
  'mock-server/src/product/domain/process.ts',
  'mock-server/src/product/domain/purge.ts',
]

/** The identity provider's grants (codes, replays, access tokens) and its token endpoint's checks. */
const IDP_RULES = ['mock-server/src/idp/grants.ts', 'mock-server/src/idp/token.ts']

/** The pipeline's authorization (which bearer a call needs) and validation (the documents' schemas). */
const PIPELINE_RULES = ['mock-server/src/pipeline/authorize.ts', 'mock-server/src/pipeline/validate.ts']

// Not mutated: the operations (product/operations/), which only put these rules in order, and the stores
// (product/storage/), which hold data twice over (memory, SQL) and are checked by the contract suite on all three
// stores. Nearly every contract test reaches them, so each surviving mutant would rerun most of the suite: with them,
// a full run took about two hours on two shared cores (docs/benchmarks.md, "npm run test:mutation").

/** What scripts/mutation-report.ts reads besides Stryker's options: each file's bar and the equivalents list. */
export const mutationReport = {
  bars: {
    ...Object.fromEntries(CORE_RULES.map((file) => [file, 95])),
    ...Object.fromEntries([...DOMAIN_RULES, ...IDP_RULES, ...PIPELINE_RULES].map((file) => [file, 90])),
  },
  equivalents: 'stryker-equivalents.server.json',
}

// The client run's options (stryker.config.mjs, whose comments say why), with the server's files, runners, reports
// and sandbox.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...client,
  mutate: [...CORE_RULES, ...DOMAIN_RULES, ...IDP_RULES, ...PIPELINE_RULES],
  vitest: { ...client.vitest, configFile: 'vitest.mutation-server.config.ts' },
  // A static mutant (module-level code: the rule tables and constants) has no covering tests of its own, so each
  // ran the whole suite in a fresh module graph: 2 to 5 minutes apiece on two shared cores, most of a full run's
  // time. They are left out (Ignored in the report); the rules they feed are checked where they are used.
  ignoreStatic: true,
  incrementalFile: 'reports/mutation/server/stryker-incremental.json',
  htmlReporter: { fileName: 'reports/mutation/server/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/server/mutation.json' },
  // Its own sandbox directory, so the client and server runs can go at once; neither copies the other's sandboxes.
  tempDirName: '.stryker-tmp/server',
  ignorePatterns: ['/.stryker-tmp'],
}
