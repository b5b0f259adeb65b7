// The session recorder's options (docs/behaviour.md: Calls, Constants), split from its wiring (recorder.ts) so they are tested without the
// tracker. Pure: imports only types. Option names checked against @openreplay/tracker 19's typings
// (dist/lib/index.d.ts: `__DISABLE_SECURE_MODE`, `obscureTextEmails`, `obscureInputEmails`, `canvas`, `network`).
import type { Options } from '@openreplay/tracker'
import { RECORDER_INGEST_PATH } from '../config/constants.ts'
import { sanitizeNetworkCapture } from './recorder-sanitizer.ts'
import type { RecorderConfig } from '../config/runtime-config.ts'

export type RecorderOptions = Partial<Options> & { projectKey: string }

/**
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
