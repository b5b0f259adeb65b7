// New-version detection (docs/behaviour.md: Session, Calls, Constants). Hourly, the app reads builds/latest.json.
// A new id with a served manifest means a new version: say so once, and make the next navigation a full load.
// Fetch, timers and navigation are injected.
import type { components } from '#api/openapi.gen.ts'
import { VERSION_CHECK_MS } from '../config/constants.ts'

export type BuildInfo = components['schemas']['BuildInfo']

export interface VersionCheckDeps {
  /** This build's id. */
  currentId: string
  fetch: (input: Request) => Promise<Response>
  /** Where the app is served (`appBaseUrl`): the build files are beside it, not under the API's base. */
  appBase: string
  timers: { setInterval(fn: () => void, ms: number): unknown; clearInterval(id: unknown): void }
  onNewVersion: (build: BuildInfo) => void
}

const isBuildInfo = (value: unknown): value is BuildInfo =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as BuildInfo).id === 'string' &&
  typeof (value as BuildInfo).timestamp === 'number'

/**
 * @example
 * const check = createVersionCheck({ currentId: BUILD_ID, fetch, appBase: appBaseUrl(origin), timers, onNewVersion })
 * check.start() // checks every hour; check.getNewerBuild() once one is found
 */
export function createVersionCheck(deps: VersionCheckDeps) {
  let newer: BuildInfo | null = null
  let timer: unknown = null

  async function getBuild(path: string): Promise<BuildInfo | null> {
    try {
      const url = new URL(path, deps.appBase).href
      const response = await deps.fetch(
        new Request(url, { headers: { Accept: 'application/json' }, cache: 'no-store' }),
      )
      if (!response.ok) return null
      const body: unknown = await response.json()
      return isBuildInfo(body) ? body : null
    } catch {
      return null // offline or a broken file: try again next time
    }
  }

  function stop() {
    if (timer !== null) deps.timers.clearInterval(timer)
    timer = null
  }

  /** One check; resolves to the newer build once there is one (and then checks no more). */
  async function check(): Promise<BuildInfo | null> {
    if (newer) return newer
    const latest = await getBuild('/builds/latest.json')
    if (!latest || latest.id === deps.currentId) return null
    const meta = await getBuild(`/builds/meta/${encodeURIComponent(latest.id)}.json`)
    if (!meta || meta.id !== latest.id || newer) return newer
    newer = meta
    stop()
    deps.onNewVersion(meta)
    return meta
  }

  return {
    start() {
      if (timer === null && !newer) timer = deps.timers.setInterval(() => void check(), VERSION_CHECK_MS)
    },
    stop,
    check,
    getNewerBuild: (): BuildInfo | null => newer,
  }
}

export type VersionCheck = ReturnType<typeof createVersionCheck>

/** What the full-load rule needs of the app's router (app/app-router.ts). */
export interface NavigatingRouter {
  /** Calls `listener` with the destination of every navigation, as it starts (app/app-router.ts). */
  subscribe(listener: (location: { pathname: string; search: string; hash: string }) => void): () => void
  createHref(location: { pathname: string; search: string; hash: string }): string
}

/**
 * Once `isOutdated()`, the next navigation becomes a full page load, before the old build loads a chunk
 * the new deployment may no longer serve. Returns a function that stops listening.
 * @example
 * installFullLoadOnNavigation({ router, isOutdated: () => check.getNewerBuild() !== null, assign: (href) => location.assign(href) })
 */
export function installFullLoadOnNavigation({
  router,
  isOutdated,
  assign,
}: {
  router: NavigatingRouter
  isOutdated: () => boolean
  assign: (href: string) => void
}): () => void {
  let left = false
  return router.subscribe((destination) => {
    if (left || !isOutdated()) return
    left = true
    assign(router.createHref(destination))
  })
}
