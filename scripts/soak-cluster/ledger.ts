// What the cluster soak's users were told by the server (journey.ts writes it; verify.ts checks it at the end), and
// what went wrong on the way.

export interface SessionEntry {
  token: string
  refreshToken: string
  /** What the end must find: still signed in, or refused (logged out, or ended by a password change). */
  expected: 'live' | 'logged_out' | 'revoked' | 'refused_during_run'
}

export interface SoakUser {
  index: number
  email: string
  /** The user's own loopback address (127.1.x.y): rate limits and lock-outs count per address. */
  address: string
  /** The newest password acknowledged (or proven applied by the answer to a retry). */
  password: string
  /** withdrawn: verified, its password no one's after a retried sign-up (docs/security/codes.md). */
  account: 'none' | 'pending' | 'verified' | 'withdrawn'
  signUpRetried: boolean
  changedPassword: boolean
  sessions: SessionEntry[]
}

export interface JourneyConfig {
  cycles: number
  refreshes: number
  /** Every n-th user changes their password once. */
  changeEvery: number
}

export interface Tally {
  wrongSignOuts: string[]
  failures: string[]
  /** Users whose retried sign-up counted as two, so their password was withdrawn. */
  withdrawn: string[]
  codesAskedAgain: number
  rotations: number
  passwordChanges: number
}

export const newTally = (): Tally => ({
  wrongSignOuts: [],
  failures: [],
  withdrawn: [],
  codesAskedAgain: 0,
  rotations: 0,
  passwordChanges: 0,
})

export function newUser(index: number): SoakUser {
  return {
    index,
    email: `soak-${index}@example.test`,
    address: `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`,
    password: `soak passphrase ${index} first`,
    account: 'none',
    signUpRetried: false,
    changedPassword: false,
    sessions: [],
  }
}
