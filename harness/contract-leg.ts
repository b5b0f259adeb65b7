// `npm run test:contracts:pglite|postgres`: the contract suite with every in-process server on that SQL store
// (CONTRACT_STORE). The PostgreSQL leg first finds or starts PostgreSQL (harness/postgres.ts); where none can be
// had outside CI it says so in one line and passes, and under CI=true that is a failure. Arguments after the store
// filter the contract files; CONTRACT_PASSED_ELSEWHERE skips the checks that already passed on the store
// (harness/passed-elsewhere.ts: the balancer leg's second step).
import { spawnSync } from 'node:child_process'
import { SQL_LEG_REQUESTS } from './leg-requests.ts'
import { ensurePostgres } from './postgres.ts'

const store = process.argv[2]
if (store !== 'pglite' && store !== 'postgres') {
  console.error('Usage: tsx harness/contract-leg.ts pglite|postgres [contract file]...')
  process.exit(2)
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  CONTRACT_STORE: store,
  CONTRACT_REPORT_DIR: `reports/contracts-${store}`,
  // Every check runs on the store; its random requests, which judge the pipeline in front of every store, are
  // fewer than on memory, which keeps npm test within its minutes (docs/contract-suite.md, Every store).
  ...SQL_LEG_REQUESTS,
}
if (store === 'postgres') {
  const target = ensurePostgres()
  if ('skipped' in target) {
    console.log(target.skipped)
    process.exit(0)
  }
  env.TEST_DATABASE_URL = target.url
}
const vitest = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'contracts',
    '--reporter=default',
    '--reporter=junit',
    `--outputFile.junit=reports/contracts-${store}/junit.xml`,
    '--reporter=./harness/reports/vitest-ctrf.ts',
    `--outputFile.ctrf=reports/contracts-${store}/ctrf.json`,
    ...process.argv.slice(3),
  ],
  { stdio: 'inherit', env },
)
process.exit(vitest.status ?? 1)
