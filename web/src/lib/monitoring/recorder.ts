// Session recording with @openreplay/tracker (docs/decisions/008): imported when this runs, after first paint, so it
// is not in the initial bundle; configured from config.json's `recorder`; identity kept in step with the session
// (recorder-identity.ts), down to a new recording when the user goes.
import { FAILED_TO_START_RECORDER } from './messages.ts'
import { getRecorderOptions } from './recorder-options.ts'
import { followRecorderIdentity, type IdentityTracker, type RecorderLogger } from './recorder-identity.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import type { IdentityStore } from './session-identity.ts'

/** The part of the tracker this uses: the identity calls, start and stop, and the plugin hook. */
export interface RecorderTracker extends IdentityTracker {
  use<T>(fn: (app: { attachStartCallback(callback: () => void, useSafe?: boolean): void } | null) => T): T
}

export type TrackerConstructor = new (options: ReturnType<typeof getRecorderOptions>) => RecorderTracker

export interface RecorderDeps {
  config: Pick<RuntimeConfig, 'recorder'>
  store: IdentityStore
  logger: RecorderLogger
  loadTracker?: () => Promise<TrackerConstructor>
}

const loadOpenReplay = async (): Promise<TrackerConstructor> => (await import('@openreplay/tracker')).default

/** Starts recording when config.json names a recorder; resolves to a function that stops it, or null. */
export async function startRecorder({
  config,
  store,
  logger,
  loadTracker = loadOpenReplay,
}: RecorderDeps): Promise<(() => void) | null> {
  if (!config.recorder) return null
  try {
    const Tracker = await loadTracker()
    const tracker = new Tracker(getRecorderOptions(config.recorder))
    // Identity first (when the session is known by then): the start call carries the user id, and the metadata
    // follows in the first batch.
    const identity = followRecorderIdentity({ tracker, store, logger })
    // Every start, the tracker's own restarts included, is told to the identity rules (an app start callback is
    // the tracker's plugin interface; `true` keeps a throw inside it from failing the start).
    tracker.use((app) => app?.attachStartCallback(() => identity.handleTrackerStarted(), true))
    try {
      await identity.started
    } catch (error) {
      identity.stop()
      throw error
    }
    return () => {
      identity.stop()
      tracker.stop()
    }
  } catch (error) {
    logger.warn(FAILED_TO_START_RECORDER, error)
    return null
  }
}
