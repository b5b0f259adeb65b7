import { describe, expect, test, vi } from 'vitest'
import { createFakeClock } from '../../test/fake-clock.ts'
import { createRecordingFetch, json } from '../../test/recording-fetch.ts'
import { createVersionCheck } from './version-check.ts'

const HOUR = 3_600_000

/** A server that serves build `served` as the newest, with a manifest for each id in `manifests`. */
function createBuildServer(initial: string) {
  const state = { served: initial, manifests: new Set([initial]) }
  const recording = createRecordingFetch((request) => {
    const path = new URL(request.url).pathname
    if (path === '/builds/latest.json') return json(200, { id: state.served, timestamp: 2 })
    const meta = /^\/builds\/meta\/(.+)\.json$/.exec(path)
    if (meta && state.manifests.has(meta[1]!)) return json(200, { id: meta[1], timestamp: 2 })
    return json(404, { error: 'not_found' })
  })
  return {
    ...recording,
    deploy(id: string, { manifest = true } = {}) {
      state.served = id
      if (manifest) state.manifests.add(id)
    },
  }
}

function setUp() {
  const clock = createFakeClock()
  const server = createBuildServer('build-a')
  const onNewVersion = vi.fn()
  const check = createVersionCheck({
    currentId: 'build-a',
    fetch: server.fetch,
    appBase: 'http://app.test/process',
    timers: clock,
    onNewVersion,
  })
  check.start()
  return { clock, server, onNewVersion, check }
}

describe('the version check (docs/behaviour.md: Session, Constants: every 3,600,000 ms)', () => {
  test('checks the latest-build file every hour, not before', async () => {
    const { clock, server } = setUp()
    await clock.advance(HOUR - 1)
    expect(server.calls).toEqual([])
    await clock.advance(1)
    expect(server.calls.map((call) => call.path)).toEqual(['/builds/latest.json'])
    await clock.advance(2 * HOUR)
    expect(server.callsTo('/builds/latest.json')).toHaveLength(3)
  })

  test('the same build served: nothing to say', async () => {
    const { clock, onNewVersion, check } = setUp()
    await clock.advance(3 * HOUR)
    expect(onNewVersion).not.toHaveBeenCalled()
    expect(check.getNewerBuild()).toBeNull()
  })

  test('a new build: its manifest is read, the news is given once, and the checks stop', async () => {
    const { clock, server, onNewVersion, check } = setUp()
    await clock.advance(HOUR)
    server.deploy('build-b')
    await clock.advance(HOUR)
    expect(onNewVersion).toHaveBeenCalledExactlyOnceWith({ id: 'build-b', timestamp: 2 })
    expect(check.getNewerBuild()).toEqual({ id: 'build-b', timestamp: 2 })
    expect(server.calls.map((call) => call.path)).toEqual([
      '/builds/latest.json',
      '/builds/latest.json',
      '/builds/meta/build-b.json',
    ])
    await clock.advance(5 * HOUR)
    expect(server.calls).toHaveLength(3)
    expect(clock.pending()).toBe(0)
  })

  test('an id without a manifest is not a build yet: checked again next hour', async () => {
    const { clock, server, onNewVersion } = setUp()
    server.deploy('build-b', { manifest: false })
    await clock.advance(HOUR)
    expect(onNewVersion).not.toHaveBeenCalled()
    server.deploy('build-b')
    await clock.advance(HOUR)
    expect(onNewVersion).toHaveBeenCalledOnce()
  })

  test('a failing or broken answer is not a new version; the checks go on', async () => {
    const clock = createFakeClock()
    let answer: () => Response = () => new Response('{', { status: 200 })
    const onNewVersion = vi.fn()
    const check = createVersionCheck({
      currentId: 'build-a',
      fetch: async () => answer(),
      appBase: 'http://app.test/',
      timers: clock,
      onNewVersion,
    })
    check.start()
    await clock.advance(HOUR)
    answer = () => {
      throw new TypeError('Failed to fetch')
    }
    await clock.advance(HOUR)
    answer = () => json(200, { id: 42 })
    await clock.advance(HOUR)
    expect(onNewVersion).not.toHaveBeenCalled()
    expect(clock.pending()).toBe(1)
  })
})
