// Session recording with @openreplay/tracker (docs/decisions/008), imported after first paint to stay out of the
// initial bundle. Option names checked against @openreplay/tracker 19's dist/lib/index.d.ts.
import type { Options } from '@openreplay/tracker'
import { RECORDER_INGEST_PATH } from '../config/constants.ts'
import type { RecorderConfig, RuntimeConfig } from '../config/runtime-config.ts'
import { FAILED_TO_START_RECORDER } from './messages.ts'
import { followRecorderIdentity, type IdentityTracker, type RecorderLogger } from './recorder-identity.ts'
import { sanitizeNetworkCapture } from './recorder-sanitizer.ts'
import type { IdentityStore } from './session-identity.ts'

export type RecorderOptions = Partial<Options> & { projectKey: string }

/**
 * The tracker's options (docs/behaviour.md: Calls, Constants).
 * @example
 * getRecorderOptions({ projectKey: 'k', host: 'https://rec.example/' }).ingestPoint // 'https://rec.example/ingest'
 */
export function getRecorderOptions({ projectKey, host }: RecorderConfig): RecorderOptions {
  return {
    projectKey,
    ingestPoint: `${host.replace(/\/+$/, '')}${RECORDER_INGEST_PATH}`,
    // Secure-mode check off (docs/behaviour.md: Constants): the tracker otherwise refuses to start on plain http (the mock server, QA).
    __DISABLE_SECURE_MODE: true,
    obscureTextEmails: false,
    obscureInputEmails: false,
    canvas: { disableCanvas: false },
    network: {
      capturePayload: true,
      failuresOnly: false,
      // The tracker drops these three by exact lower-case name; the sanitizer masks them whatever their case.
      ignoreHeaders: ['authorization', 'cookie', 'set-cookie'],
      sessionTokenHeader: false,
      captureInIframes: true,
      sanitizer: sanitizeNetworkCapture,
    },
  }
}

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
    // Identity first, so the start call carries the user id.
    const identity = followRecorderIdentity({ tracker, store, logger })
    // Every start, restarts included, goes to the identity rules. `true` keeps a throw from failing the start.
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
