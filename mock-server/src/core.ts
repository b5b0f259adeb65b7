// The mock backend without a host: each feature gets the others' parts handed in here, never imports them.
// It holds the two operation tables and the one dispatch every host adapts to.
import { createControl, type Control } from './control/index.ts'
import type { MockOptions } from './compose/options.ts'
import {
  controlStoresOf,
  idpStoresOf,
  journalOf,
  openPersistence,
  pendingSignInsOf,
  productCountersOf,
  productStoreOf,
  storeProbesOf,
} from './compose/state-store.ts'
import { createApiTable, createControlTable } from './compose/tables.ts'
import { createMockDispatcher } from './compose/dispatcher.ts'
import { runShutdownHooks, type ShutdownHook } from './compose/shutdown.ts'
import { createExternalSignInFeature, type ExternalSignInProvider } from './external-sign-in/index.ts'
import type { PendingSignIns } from './external-sign-in/pending-sign-ins.ts'
import { createHealth, isProbePath } from './health/index.ts'
import { createIdp } from './idp/index.ts'
import type { OpenIdProvider } from './idp/provider.ts'
import { faultResponse, type Dispatch } from './pipeline/dispatch.ts'
import type { Journal } from './pipeline/journal.ts'
import { createCompiledDocuments, type DocumentName } from './pipeline/openapi-docs.ts'
import { requestUrl, type RawRequest, type RawResponse } from './pipeline/raw.ts'
import type { AnyHandler } from './pipeline/types.ts'
import { createProduct, type Product } from './product/index.ts'
import { SEED_ACCOUNTS } from './product/domain/seed.ts'
import { createControlClock, type ControlClock } from './shared/control-clock.ts'
import { ServiceUnavailableError } from './shared/unavailable.ts'

export type { MockOptions } from './compose/options.ts'

/** The parts tests and hosts reach into (the product's domain, the control pieces, the provider). */
export interface MockParts extends Pick<Product, 'domain' | 'limiters' | 'build'> {
  clock: ControlClock
  journal: Journal
  mailbox: Control['mailbox']
  scenarios: Control['scenarios']
  sinks: Control['sinks']
  /** The fingerprints of secrets the state has taken (control/state.ts). */
  fingerprints: Control['fingerprints']
  /** Back to the seed state. */
  reset(): Promise<void>
  external: ExternalSignInProvider | null
  pendingSignIns: PendingSignIns
  /** The OpenID provider the mock plays at /idp; null in production mode. */
  idp: OpenIdProvider | null
}

export interface MockCore {
  dispatch(request: RawRequest): Promise<RawResponse | null>
  /** Resolves once the seed (or the data file) is loaded. */
  ready: Promise<void>
  clock: ControlClock
  ops: MockParts
  production: boolean
  /** Whether external sign-in works here (config.json `externalSignIn`). */
  externalSignIn: boolean
  /** Writes pending state to the data file and pending mails to the outbox, and waits for SMTP sends under way. */
  flush(): Promise<void>
  /** Readiness answers 503 from now on (the server is stopping; main.ts). */
  beginShutdown(): void
  /**
   * For a shutdown, once no request is in flight: as flush, after giving each mail waiting for an SMTP retry its
   * last attempt now, for at most MAIL_CLOSE_DEADLINE_MS (each mail not sent is reported as given up at shutdown);
   * then every shutdown hook in order (compose/shutdown.ts). The core is not used after it.
   */
  close(): Promise<void>
  /**
   * Each document's operations by operationId, looked up at every call: a test replaces one to make it throw,
   * and sees the answer a fault gets (contracts/pipeline/conformance.contract.test.ts).
   */
  tables: Record<DocumentName, Record<string, AnyHandler>>
}

/** The database-out-of-reach error `work` failed with, or null when it did not; any other failure is thrown. */
async function unavailableIn(work: Promise<unknown> | undefined): Promise<ServiceUnavailableError | null> {
  try {
    await work
    return null
  } catch (error) {
    if (error instanceof ServiceUnavailableError) return error
    throw error
  }
}

/** A request's path as the pipeline routes it (pipeline/raw.ts, `requestUrl`); a target it cannot read, as sent. */
function pathOf(request: RawRequest): string {
  try {
    return requestUrl(request).pathname
  } catch {
    return request.url // the pipeline fails on it as well
  }
}

/**
 * A call that moved the clock or the served build: POST /__mock/clock, /__mock/build or /__mock/reset, not refused
 * (a 4xx moved nothing). Which calls did cannot be told from the instance's clock, which a sync or another call's
 * move changes meanwhile. Any other control call writes its own rows: its answer neither waits on nor fails with
 * the save of other calls' moves, which would have it retried and count twice.
 */
const movedClockOrBuild = (request: RawRequest, path: string, response: RawResponse | null) =>
  request.method.toUpperCase() === 'POST' &&
  /^\/__mock\/(clock|build|reset)$/.test(path) &&
  response !== null &&
  !(response.status >= 400 && response.status < 500)

export function createMockCore(options: MockOptions = {}): MockCore {
  const production = options.production === true
  const clock = createControlClock(options.realNow)
  const journal = journalOf(options, clock)
  const control = createControl(options, clock, controlStoresOf(options, clock))
  const onPurged = () => persistence?.schedule()
  const product = createProduct(
    { ...options, production, store: productStoreOf(options), counters: productCountersOf(options) },
    { clock, mailbox: control.mailbox, onPurged },
  )
  const { controlToken, publicOrigin } = options
  const seedAccounts = SEED_ACCOUNTS.filter((account) => account.verified)
  const idp = createIdp({
    clock,
    production,
    controlToken,
    publicOrigin,
    seedAccounts,
    stores: idpStoresOf(options, clock, seedAccounts),
  })
  const external = createExternalSignInFeature({
    clock,
    pendingSignIns: pendingSignInsOf(options, clock, () => product.domain.config.secret),
    provider: options.externalSignIn,
    oidc: options.oidc,
    localClient: idp.provider?.clients.product ?? null,
    publicOrigin,
    signIn: product.signInExternally,
    getDispatch: () => dispatch,
  })
  async function reset(): Promise<void> {
    // The mailbox first: a sign-up on another instance meanwhile keeps its mail with its account and code.
    await control.clear()
    await product.clear()
    await journal.clear()
    await idp.provider?.reset()
    await external.pendingSignIns.clear()
    clock.reset()
    await product.seed()
  }
  const persistence = openPersistence(options, {
    domain: product.domain,
    mailbox: control.mailbox,
    clock,
    production,
    build: product.build,
  })
  const ready = (async () => {
    // Made now: made by the first sign-in at an unknown address, it would slow that call and give the address away.
    await product.domain.hasher.dummyHash()
    if (!persistence) return reset()
    if (await persistence.load(reset)) {
      // Another instance seeded this database, maybe before the provider's accounts had a table, or it took a data
      // file's state: the missing go in.
      await idp.provider?.seed()
      return
    }
    await persistence.save()
  })()
  // Where a store or a transport composed here adds its probe and its closer (the options' come after them).
  const health = createHealth({ probes: [...storeProbesOf(options), ...(options.readinessProbes ?? [])] })
  const shutdownHooks: ShutdownHook[] = [...(options.onShutdown ?? [])]
  // Read and compiled once for the routes and for GET /__mock/docs/{document}.json.
  const documents = options.documents ?? createCompiledDocuments()
  const tables: MockCore['tables'] = {
    api: { ...createApiTable(product, external) },
    control: { ...createControlTable({ control, idp, journal, product, reset, health, documents }) },
  }
  const dispatch: Dispatch = createMockDispatcher(
    { ...options, production },
    { tables, product, scenarios: control.scenarios, journal, documents },
  )
  const flush = async () => {
    await Promise.all([persistence?.flush(), control.flush()])
  }
  return {
    async dispatch(arrived) {
      const request = { ...arrived, receivedAt: arrived.receivedAt ?? performance.now() }
      await ready
      // A probe asks nothing of the store: liveness must not fail with a database.
      if (isProbePath(request.url)) return dispatch(request)
      // A call of the control surface, its path read as routed (/x/../__mock/clock is the clock's too): what it
      // changes, other instances must see from the next call on.
      const path = pathOf(request)
      const control = path.startsWith('/__mock/')
      // What another instance changed (the control clock) counts from this call on (compose/sql-persistence.ts);
      // a control call must not answer from a clock it could not read. With the database out of reach the purge
      // waits for a later call, and the call itself gets its 503 from the pipeline.
      const unsynced = await unavailableIn(persistence?.sync?.())
      if (control && unsynced) return faultResponse(unsynced)
      // Taken before the call moves anything: a write failing from here on may undo its move, so its save fails too
      // (a reset moves the clock and then seeds: a save beside it may fail before it asks for its own).
      const since = persistence?.failures?.()
      await unavailableIn(product.purgeWhenDue())
      const response = await dispatch(request)
      if (persistence && request.method !== 'GET') {
        // A control call (a clock move) on a shared database is saved before its answer, so the next call on any
        // instance sees it; one that cannot be saved is answered 503, never 200 and then forgotten.
        if (control && persistence.sync) {
          if (!movedClockOrBuild(request, path, response)) return response
          const unsaved = await unavailableIn(persistence.save(since))
          if (unsaved) return faultResponse(unsaved)
        } else {
          persistence.schedule()
          if (control) await persistence.flush()
        }
      }
      return response
    },
    ready,
    clock,
    ops: {
      domain: product.domain,
      limiters: product.limiters,
      build: product.build,
      clock,
      journal,
      mailbox: control.mailbox,
      scenarios: control.scenarios,
      sinks: control.sinks,
      fingerprints: control.fingerprints,
      reset,
      external: external.external,
      pendingSignIns: external.pendingSignIns,
      idp: idp.provider,
    },
    production,
    externalSignIn: external.available,
    flush,
    beginShutdown: health.beginShutdown,
    close: async () => {
      await Promise.all([persistence?.flush(), control.close()])
      await runShutdownHooks(shutdownHooks, options.logError ?? ((line) => console.error(line)))
    },
    tables,
  }
}
