// Session recording with @openreplay/tracker (spec 4, 7, 9): imported when this runs, after first paint, so it is
// not in the initial bundle; configured from config.json's `recorder`; identity kept in step with the session.
import { getRecorderOptions } from './recorder-options.ts'
import { syncRecorderIdentity, type IdentitySession, type RecorderLogger } from './recorder-identity.ts'
import type { RuntimeConfig } from './runtime-config.ts'

/** The part of the tracker this uses. */
export interface RecorderTracker {
  setUserID(id: string): void
  setMetadata(key: string, value: string): void
  start(): Promise<unknown>
  stop(): unknown
}

export type TrackerConstructor = new (options: ReturnType<typeof getRecorderOptions>) => RecorderTracker

export interface RecorderDeps {
  config: Pick<RuntimeConfig, 'recorder'>
  store: { subscribe(listener: () => void): () => void; getSnapshot(): IdentitySession }
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
    // Identity first: the start call then carries the user id, and the metadata follows in the first batch.
    const stopSync = syncRecorderIdentity({ tracker, store, logger })
    await tracker.start()
    return () => {
      stopSync()
      tracker.stop()
    }
  } catch (error) {
    logger.warn('Failed to start the session recorder:', error)
    return null
  }
}
