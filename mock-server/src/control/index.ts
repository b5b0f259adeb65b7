// The /__mock control surface: scenarios, the mailbox, the error-report sinks, and their operations.
// The clock, the journal, the state's product part and the reset are handed in by core.ts.
import type { CompiledDocuments } from '../pipeline/openapi-docs.ts'
import { MAX_SINK_BYTES } from '../shared/constants.ts'
import type { ControlClock } from '../shared/control-clock.ts'
import { createDocsOperations, type ViewerReader } from './docs-operations.ts'
import type { createMailOutbox, MailOutbox } from './mail-outbox.ts'
import { createMailbox, withOutbox, type Mailbox } from './mailbox.ts'
import { createControlOperations, type ControlDeps } from './operations.ts'
import { createScenarios, type Scenarios } from './scenarios.ts'
import { createSinkOperations } from './sink-operations.ts'
import { createMemorySinkStore, createSinks, MAX_SINK_ITEMS, type Gunzip, type SinkStore } from './sinks.ts'
import type { createSmtpOutbox, SmtpSettings } from './smtp-mail.ts'
import { createFingerprints } from './state.ts'

export interface ControlOptions {
  /** What each error-report sink keeps at most, in bytes of JSON (default MAX_SINK_BYTES). */
  maxSinkBytes?: number | undefined
  /** Every mail sent is also written to this folder, code included (--mail-outbox; control/mail-outbox.ts). */
  mailOutbox?: string | undefined
  logError?: ((line: string) => void) | undefined
  /** Reads the /__mock/docs viewer's script, a file only the Node server has (app.ts hands compose/node-ports.ts). */
  readDocsViewer?: ViewerReader | undefined
  /** Inflates gzip recorder batches synchronously (Node's zlib; app.ts hands compose/node-ports.ts). */
  gunzip?: Gunzip | undefined
  /** Opens the --mail-outbox folder (control/mail-outbox.ts; a folder only the Node server has, handed in by app.ts). */
  openMailOutbox?: typeof createMailOutbox | undefined
  /** Every mail sent also goes over SMTP (--smtp; control/smtp-mail.ts, docs/mail.md). */
  smtp?: SmtpSettings | undefined
  /** Opens the SMTP transport (nodemailer, which only the Node server has; handed in by app.ts). */
  openSmtp?: typeof createSmtpOutbox | undefined
}

const reportOf = (options: ControlOptions) => options.logError ?? ((line: string) => console.error(line))

function openOutbox(options: ControlOptions, dir: string) {
  if (!options.openMailOutbox)
    throw new Error('A mail outbox needs the Node server (app.ts), which opens it.')
  return options.openMailOutbox(dir, reportOf(options))
}

function openSmtp(options: ControlOptions, settings: SmtpSettings) {
  if (!options.openSmtp) throw new Error('Mail over SMTP needs the Node server (app.ts), which opens it.')
  return options.openSmtp(settings, reportOf(options))
}

/** Where each mail goes besides the mailbox: the --mail-outbox folder and the SMTP server, both when both are set. */
function openTransports(options: ControlOptions): Array<MailOutbox & { close?(): Promise<void> }> {
  return [
    ...(options.mailOutbox ? [openOutbox(options, options.mailOutbox)] : []),
    ...(options.smtp ? [openSmtp(options, options.smtp)] : []),
  ]
}

/** Where the mailbox, the scenarios and the sinks live when not in this process (compose/sql-control.ts, sql-sinks.ts). */
export interface ControlStores {
  mailbox?: Mailbox | undefined
  scenarios?: Scenarios | undefined
  sinks?: SinkStore | undefined
}

export function createControl(options: ControlOptions, clock: ControlClock, stores: ControlStores = {}) {
  const transports = openTransports(options)
  const mailbox = transports.reduce(
    (inner, transport) => withOutbox(inner, transport, clock),
    stores.mailbox ?? createMailbox(clock),
  )
  const scenarios = stores.scenarios ?? createScenarios(clock)
  const sinkStore =
    stores.sinks ??
    createMemorySinkStore({ maxBytes: options.maxSinkBytes ?? MAX_SINK_BYTES, maxItems: MAX_SINK_ITEMS })
  const sinks = createSinks(clock, sinkStore, options.gunzip)
  const fingerprints = createFingerprints()
  return {
    mailbox,
    scenarios,
    sinks,
    fingerprints,
    /** The operations, once what they read of other features exists (core.ts). */
    createOperations({
      documents,
      ...deps
    }: Pick<ControlDeps, 'reset' | 'build' | 'domain' | 'settings'> & { documents: CompiledDocuments }) {
      return {
        ...createControlOperations({ ...deps, clock, scenarios, mailbox, fingerprints }),
        ...createDocsOperations(documents, options.readDocsViewer),
        ...createSinkOperations({ sinks }),
      }
    },
    /** Empties the mailbox, the scenarios and the sinks. */
    async clear(): Promise<void> {
      await mailbox.clear()
      await scenarios.clear()
      await sinks.clear()
    },
    /** Writes pending mails to the outbox folder and waits for the SMTP sends under way (not for their retries). */
    flush: async () => {
      await Promise.all(transports.map((transport) => transport.flush()))
    },
    /** As flush, after giving each mail waiting for an SMTP retry its last attempt; for a shutdown. */
    close: async () => {
      await Promise.all(transports.map((transport) => transport.close?.() ?? transport.flush()))
    },
  }
}

export type Control = ReturnType<typeof createControl>
