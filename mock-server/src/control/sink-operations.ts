// The `sinks` tag of the control document: the error-reporting and session-recorder ingests.
import type { operations } from '#api/control.gen.ts'
import { BatchTooLargeError, UnreadableError, type Sinks } from './sinks.ts'
import type { OperationTable } from '../pipeline/types.ts'

type SinkOperations = Pick<
  operations,
  | 'receiveSentryEnvelope'
  | 'listSentryEvents'
  | 'startRecording'
  | 'getRecorderTags'
  | 'receiveRecorderBatch'
  | 'receiveRecorderImages'
  | 'listRecorderSessions'
>

/** Binary bodies arrive as bytes; the generated type says string (OpenAPI's `format: binary`). */
const asBytes = (body: unknown) =>
  body instanceof Uint8Array ? body : new TextEncoder().encode(String(body ?? ''))

export function createSinkOperations({ sinks }: { sinks: Sinks }): OperationTable<SinkOperations> {
  return {
    async receiveSentryEnvelope({ body }) {
      try {
        return { status: 200, body: { id: await sinks.receiveEnvelope(asBytes(body)) } }
      } catch (error) {
        // The parser's own words (a JSON error, its position) stay inside: the answer says only what was refused.
        // Anything else (the database out of reach) is the pipeline's to answer.
        if (!(error instanceof UnreadableError)) throw error
        return {
          status: 400,
          body: { error: 'envelope_unreadable', message: 'The envelope could not be read.' },
        }
      }
    },
    listSentryEvents: async () => ({ status: 200, body: { events: await sinks.events() } }),
    async startRecording({ body }) {
      const { token, session } = await sinks.startRecording(body)
      return {
        status: 200,
        body: {
          token,
          userUUID: `user-${session.id}`,
          sessionID: session.id,
          projectID: '1',
          delay: 0,
          beaconSizeLimit: 1_000_000,
          compressionThreshold: 24_000,
          startTimestamp: Date.parse(session.started_at),
          protocolVersion: 1,
          canvasEnabled: true,
        },
      }
    },
    getRecorderTags: () => ({ status: 200, body: { tags: [] } }),
    async receiveRecorderBatch({ body, request }) {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
      const gzip = request.headers['content-encoding']?.toLowerCase() === 'gzip'
      try {
        if (!(await sinks.receiveBatch(token, asBytes(body), gzip))) {
          return {
            status: 401,
            body: { error: 'token_invalid', message: 'Start a recording session first.' },
          }
        }
      } catch (error) {
        if (error instanceof BatchTooLargeError)
          return { status: 413, body: { error: 'payload_too_large', message: error.message } }
        // A body that cannot be read is the request's fault (400, control.openapi.yaml), not the token's.
        if (!(error instanceof UnreadableError)) throw error
        return { status: 400, body: { error: 'batch_unreadable', message: 'The batch could not be read.' } }
      }
      return { status: 200 }
    },
    receiveRecorderImages: () => ({ status: 200 }),
    listRecorderSessions: async () => ({ status: 200, body: { sessions: await sinks.sessions() } }),
  }
}
