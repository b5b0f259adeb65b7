// Liveness and readiness (/healthz, /readyz; tag `health` of api/control.openapi.yaml) for orchestrators and load
// balancers. The probes are handed in by the composition root (core.ts): this feature knows no store and no
// transport, only names and answers. docs/deploying.md says how to point a probe here.
import type { operations } from '#api/control.gen.ts'
import type { OperationTable } from '../pipeline/types.ts'
import { READINESS_PROBE_TIMEOUT_MS, READINESS_RETRY_AFTER_S } from '../shared/constants.ts'

/** One dependency readiness asks: it resolves true when the dependency answers. Its error is never shown. */
export interface ReadinessProbe {
  /** The name /readyz shows (`store`, `mail`); unique, and not `server`, which is the server's own state. */
  name: string
  check(): Promise<boolean>
}

type HealthOperations = Pick<operations, 'getLiveness' | 'headLiveness' | 'getReadiness' | 'headReadiness'>
type CheckResult = 'ok' | 'unreachable' | 'timeout' | 'stopping'

export interface HealthOptions {
  probes?: readonly ReadinessProbe[] | undefined
  /** Default READINESS_PROBE_TIMEOUT_MS. */
  probeTimeoutMs?: number | undefined
}

export interface Health {
  operations: OperationTable<HealthOperations>
  /** From now on readiness answers 503 `server: stopping` (main.ts, on SIGTERM), so balancers send no more. */
  beginShutdown(): void
}

const NO_STORE = { 'cache-control': 'no-store' }

export function createHealth(options: HealthOptions = {}): Health {
  const probes = [...(options.probes ?? [])]
  const names = probes.map((probe) => probe.name)
  const clash = names.find((name, index) => name === 'server' || names.indexOf(name) !== index)
  if (clash !== undefined)
    throw new Error(`Failed to compose readiness: the probe name ${clash} is taken; give each probe its own.`)
  const timeoutMs = options.probeTimeoutMs ?? READINESS_PROBE_TIMEOUT_MS
  let stopping = false
  async function readiness() {
    const checks: Record<string, CheckResult> = stopping
      ? { server: 'stopping' }
      : Object.fromEntries(
          await Promise.all(probes.map(async (probe) => [probe.name, await runProbe(probe, timeoutMs)])),
        )
    const ready = Object.values(checks).every((result) => result === 'ok')
    return ready
      ? ({ status: 200, headers: NO_STORE, body: { status: 'ok', checks } } as const)
      : ({
          status: 503,
          headers: { ...NO_STORE, 'retry-after': String(READINESS_RETRY_AFTER_S) },
          body: { status: 'unavailable', checks },
        } as const)
  }
  return {
    operations: {
      getLiveness: () => ({ status: 200, headers: NO_STORE, body: { status: 'ok' } }),
      headLiveness: () => ({ status: 200, headers: NO_STORE }),
      getReadiness: readiness,
      headReadiness: async () => {
        const { status, headers } = await readiness()
        return { status, headers }
      },
    },
    beginShutdown: () => void (stopping = true),
  }
}

/** A probe's answer, bounded in time; a throw is `unreachable`, its message kept out (it may name a host or user). */
async function runProbe(probe: ReadinessProbe, timeoutMs: number): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  // Called inside a promise, so a probe that throws at once counts like one that rejects.
  const answered = Promise.resolve()
    .then(() => probe.check())
    .then(
      (ok): CheckResult => (ok === true ? 'ok' : 'unreachable'),
      (): CheckResult => 'unreachable',
    )
  try {
    return await Promise.race([answered, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Whether a request URL is /healthz or /readyz, with or without a query (core.ts asks no store for these). */
export function isProbePath(url: string): boolean {
  return /^\/(healthz|readyz)(\?|$)/.test(url)
}
