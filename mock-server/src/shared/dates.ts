// The instants an RFC 3339 date-time can write (docs/security/hardening.md).
import { EARLIEST_DATE_MS, LATEST_DATE_MS } from './constants.ts'

/** Whether an instant can be written as an RFC 3339 date-time (a four-digit year). */
export function isWritableDate(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_DATE_MS && ms <= LATEST_DATE_MS
}
