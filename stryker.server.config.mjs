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

// Not mutated yet: the operations (product/operations/{auth,session,account,sign-in}.ts), the identity provider
// (idp/{grants,token,authorization-request,clients}.ts) and the pipeline (pipeline/{authorize,validate,
// control-guard,cookies,cors,cross-site,client-key}.ts). Nearly every contract test reaches them, so each surviving
// mutant reruns most of the suite: measured with them, a full run would take about two hours on two shared cores,
// past the 60 minutes (docs/benchmarks.md, "npm run test:mutation").

/** What scripts/mutation-report.ts reads besides Stryker's options: each file's bar and the equivalents list. */
export const mutationReport = {
  bars: {
    ...Object.fromEntries(CORE_RULES.map((file) => [file, 95])),
    ...Object.fromEntries(DOMAIN_RULES.map((file) => [file, 90])),
  },
  equivalents: 'stryker-equivalents.server.json',
}

// The client run's options (stryker.config.mjs, whose comments say why), with the server's files, runners, reports
// and sandbox.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...client,
  mutate: [...CORE_RULES, ...DOMAIN_RULES],
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
