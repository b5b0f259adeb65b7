// A port to give a server that binds it later: the suite's SMTP capture, started after the server it is named to, or
// a private PostgreSQL, started again on its port after a stop. A port the kernel handed out for port 0 and that was
// then freed can be handed to another of npm test's servers the next moment (two tests failed so, b484a2f); a port
// below the ephemeral range (/proc/sys/net/ipv4/ip_local_port_range) is never handed out for port 0, so only a
// server that names it could take it.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** The lowest port picked: above the ports services are commonly configured on. */
const FLOOR = 10_000
const TRIES = 100

/** Where ports are picked: below the ephemeral range, or, where it starts too low to leave room, anywhere above FLOOR. */
export function pickRange(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): {
  from: number
  to: number
} {
  let low = 32_768
  try {
    const first = Number(readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0])
    if (Number.isSafeInteger(first)) low = first
  } catch {
    // Not Linux: the range IANA suggests (49152 up) and Linux's default both start above 32767.
  }
  return low > FLOOR + 1_000 ? { from: FLOOR, to: low - 1 } : { from: FLOOR, to: 65_535 }
}

/** Whether a server can listen on `port` on 127.0.0.1 now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/** A port nothing listens on now, from pickRange, chosen at random so that two runs side by side rarely meet. */
export async function unclaimedPort(random: () => number = Math.random): Promise<number> {
  const { from, to } = pickRange()
  for (let tries = 0; tries < TRIES; tries += 1) {
    const port = from + Math.floor(random() * (to - from + 1))
    if (await isFree(port)) return port
  }
  throw new Error(`Failed to find a free port from ${from} to ${to} in ${TRIES} tries.`)
}
