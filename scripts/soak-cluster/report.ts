// The cluster soak's figures (scripts/soak-cluster.ts prints them; its test reads them): anything lost, anyone
// signed out wrongly, any journey cut short makes the run fail.
import type { SoakResult } from './run.ts'

/** The figures, and whether anything was lost. */
export function summarize(result: SoakResult): { lines: string[]; failed: boolean } {
  const { stats, tally, verdict } = result
  const lost = verdict.lostAccounts.length + verdict.lostPasswordChanges.length + verdict.lostSessions.length
  const wrong = tally.wrongSignOuts.length + verdict.lostSessions.length
  const problems = [
    ...verdict.lostAccounts,
    ...verdict.lostPasswordChanges,
    ...verdict.lostSessions,
    ...tally.wrongSignOuts,
    ...verdict.notSignedOut,
    ...verdict.duplicates,
    ...tally.failures,
  ]
  const failed = problems.length > 0
  const lines = [
    `calls: ${stats.calls}; 2xx: ${stats.ok}; statuses ${[...stats.statuses].map(([s, n]) => `${s} x ${n}`).join(', ')}`,
    `kills: ${result.kills}; retries after a kill: ${stats.retries}; 503 answers tried again: ${stats.unavailable}; sign-up codes asked again: ${tally.codesAskedAgain}`,
    `acknowledged: ${tally.rotations} rotations, ${tally.passwordChanges} password changes`,
    `sign-ups sent twice (no answer to the first) whose password was withdrawn as two sign-ups' are (docs/security/codes.md): ${tally.withdrawn.length}`,
    `lost: ${lost} (accounts ${verdict.lostAccounts.length}, password changes ${verdict.lostPasswordChanges.length}, sessions with their rotations ${verdict.lostSessions.length})`,
    `wrongly signed out: ${wrong} (during the run ${tally.wrongSignOuts.length}, at the end ${verdict.lostSessions.length})`,
    `still signed in after a log-out or a password change: ${verdict.notSignedOut.length}; duplicate accounts: ${verdict.duplicates.length}; journeys cut short: ${tally.failures.length}`,
    `checked through a fresh instance: ${verdict.checked.accounts} accounts, ${verdict.checked.liveSessions} live sessions, ${verdict.checked.endedSessions} ended sessions`,
    `wall time: ${result.seconds.toFixed(1)} s`,
    ...(failed ? ['what went wrong (first 20):', ...problems.slice(0, 20).map((line) => `  ${line}`)] : []),
    ...(failed && result.instanceErrors.length > 0
      ? [
          'the instances last wrote on stderr:',
          ...result.instanceErrors.slice(-20).map((line) => `  ${line}`),
        ]
      : []),
  ]
  return { lines, failed }
}
