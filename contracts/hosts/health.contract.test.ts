// Liveness and readiness (/healthz, /readyz; tag health of api/control.openapi.yaml): answered in every mode, to
// anyone, never cached, never limited; readiness names what is not ready and says when to ask again
// (docs/deploying.md).
import { describe, expect, test } from 'vitest'
import { readFileSync } from 'node:fs'
import { createTestServer, requireOwnServer } from '#contracts/fixtures.ts'
import { CONTRACT_STORE, startLiveServer } from '#contracts/support/test-server.ts'
import { requireDirectConnection, TARGET_URL } from '#contracts/support/target.ts'
import { NGINX_TEMPLATE } from '#harness/balancer/config.ts'
import type { ReadinessProbe } from '#mock-server/health/index.ts'
import { READINESS_RETRY_AFTER_S } from '#mock-server/shared/constants.ts'

/** A SQL store adds its own probe (compose/state-store.ts); memory has none. */
const storeCheck = CONTRACT_STORE === 'memory' ? {} : { store: 'ok' }
const SECRET = 'postgres://app:hunter2-secret@db.internal:5432/app'
const up: ReadinessProbe = { name: 'backend', check: async () => true }
const down: ReadinessProbe = { name: 'mail', check: async () => false }
const failing: ReadinessProbe = {
  name: 'backend',
  check: async () => {
    throw new Error(`connect ECONNREFUSED ${SECRET}`)
  },
}

describe('liveness', () => {
  test('GET /healthz answers 200 {"status":"ok"}, never cached; HEAD answers the same without a body', async () => {
    const { api } = await createTestServer()
    const got = await api.get('/healthz').expect(200)
    expect(got.body).toEqual({ status: 'ok' })
    expect(got.headers['cache-control']).toBe('no-store')
    const head = await api.head('/healthz').expect(200)
    expect(head.headers['cache-control']).toBe('no-store')
    expect(head.text ?? '').toBe('')
  })

  test('stays 200 while a dependency is down: liveness asks none', async () => {
    requireOwnServer('hands the in-process app a probe that fails')
    const { api } = await createTestServer({ readinessProbes: [failing] })
    expect((await api.get('/healthz').expect(200)).body).toEqual({ status: 'ok' })
  })
})

describe('readiness', () => {
  test('GET /readyz answers 200 with every probe ok, never cached', async () => {
    requireOwnServer('hands the in-process app its probes')
    const { api } = await createTestServer({ readinessProbes: [up] })
    const got = await api.get('/readyz').expect(200)
    expect(got.body).toEqual({ status: 'ok', checks: { ...storeCheck, backend: 'ok' } })
    expect(got.headers['cache-control']).toBe('no-store')
    expect(got.headers['retry-after']).toBeUndefined()
    await api.head('/readyz').expect(200)
  })

  test('the in-memory store has no probe, a SQL store its own: ready as soon as the server answers', async () => {
    const { api } = await createTestServer()
    const { body } = await api.get('/readyz').expect(200)
    // A target's store is its own choice: a SQL one names its probe, memory none.
    const expected = TARGET_URL && 'store' in body.checks ? { store: 'ok' } : storeCheck
    expect(body).toEqual({ status: 'ok', checks: expected })
  })

  test('a probe that answers no, or fails, is 503 with Retry-After, naming it and nothing of its error', async () => {
    requireOwnServer('hands the in-process app probes that fail')
    const errors: string[] = []
    const lines: string[] = []
    const { api } = await createTestServer({
      readinessProbes: [failing, down],
      logError: (line) => errors.push(line),
      log: (line) => lines.push(line),
    })
    const got = await api.get('/readyz').expect(503)
    expect(got.body).toEqual({
      status: 'unavailable',
      checks: { ...storeCheck, backend: 'unreachable', mail: 'unreachable' },
    })
    expect(got.headers['retry-after']).toBe(String(READINESS_RETRY_AFTER_S))
    expect(got.headers['cache-control']).toBe('no-store')
    const head = await api.head('/readyz').expect(503)
    expect(head.headers['retry-after']).toBe(String(READINESS_RETRY_AFTER_S))
    for (const text of [got.text, JSON.stringify(head.headers), ...errors, ...lines])
      expect(text).not.toContain('hunter2')
  })

  test('answers 503 "server: stopping" once the server stops, whatever the probes say; liveness stays 200', async () => {
    requireOwnServer('stops the in-process app')
    const server = await createTestServer({ readinessProbes: [up] })
    await server.api.get('/readyz').expect(200)
    server.app.core.beginShutdown()
    const got = await server.api.get('/readyz').expect(503)
    expect(got.body).toEqual({ status: 'unavailable', checks: { server: 'stopping' } })
    expect(got.headers['retry-after']).toBe(String(READINESS_RETRY_AFTER_S))
    await server.api.get('/healthz').expect(200)
  })
})

describe('served the way probes come', () => {
  test.each([
    ['in --production', { production: true }],
    ['with a control token', { controlToken: 'a-control-token-for-probes' }],
  ] as const)('%s, at any Host, without the control token', async (_mode, options) => {
    const { stranger } = await createTestServer(options)
    for (const path of ['/healthz', '/readyz']) {
      // A kubelet names the pod's address; a balancer names whatever its check says.
      const got = await stranger.get(path).set('Host', '10.1.2.3:4010').expect(200)
      expect(got.body.status).toBe('ok')
    }
  })

  test('never rate-limited: a probe every few milliseconds is answered every time', async () => {
    const { api } = await createTestServer()
    for (let call = 0; call < 60; call += 1) {
      await api.get(call % 2 === 0 ? '/healthz' : '/readyz').expect(200)
    }
  })
})

describe('kept connections', () => {
  test('the server says how long it keeps an idle connection; the tested balancer drops its own sooner', async () => {
    // A balancer that keeps a connection longer than the server may send a call on one the server is closing, and
    // with no second try (docs/deploying.md) that call is a 502.
    requireDirectConnection("reads the server's own Keep-Alive header, which a balancer replaces")
    const live = await startLiveServer()
    try {
      const answer = await fetch(`${live.origin}/healthz`)
      await answer.arrayBuffer()
      const serverSeconds = Number(/timeout=(\d+)/.exec(answer.headers.get('keep-alive') ?? '')?.[1])
      expect(serverSeconds).toBeGreaterThan(0)
      const nginx = readFileSync(NGINX_TEMPLATE, 'utf8')
      const balancerSeconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(nginx)?.[1])
      expect(balancerSeconds).toBeGreaterThan(0)
      expect(balancerSeconds).toBeLessThan(serverSeconds)
    } finally {
      await live.close()
    }
  })
})
