// `--data FILE`: the state kept across restarts. Writes are atomic (a temporary file renamed over the
// old one) and serialized; a write follows every call that may have changed state.
import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import type { ControlClock } from './control/clock.ts'
import type { Mail, Mailbox } from './control/mailbox.ts'
import type { DomainContext } from './domain/context.ts'
import { restoreStore, snapshotStore, type StoreSnapshot } from './domain/store.ts'

const FORMAT = 1

interface SavedState {
  format: number
  secret: string
  clockOffsetMs: number
  store: StoreSnapshot
  mails: Mail[]
}

export interface Persistence {
  /** Loads the file; false when there is none yet. Throws on a file it cannot read. */
  load(): Promise<boolean>
  save(): Promise<void>
  /** Saves soon, after any save under way. */
  schedule(): void
  flush(): Promise<void>
}

export function createPersistence(
  file: string,
  domain: DomainContext,
  mailbox: Mailbox,
  clock: ControlClock,
): Persistence {
  let chain: Promise<void> = Promise.resolve()
  let pending = false
  async function save(): Promise<void> {
    const state: SavedState = {
      format: FORMAT,
      secret: domain.config.secret,
      clockOffsetMs: clock.offsetMs(),
      store: snapshotStore(domain.store),
      mails: mailbox.snapshot(),
    }
    const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
    await writeFile(temporary, JSON.stringify(state), { mode: 0o600 })
    await rename(temporary, file)
  }
  return {
    async load() {
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
        throw new Error(`Failed to read ${file}: ${(error as Error).message}.`, { cause: error })
      }
      const state = JSON.parse(text) as SavedState
      if (state.format !== FORMAT)
        throw new Error(`Failed to read ${file}: unknown format ${String(state.format)}.`)
      domain.config.secret = state.secret
      clock.set(Date.now() + state.clockOffsetMs)
      await restoreStore(domain.store, state.store)
      mailbox.restore(state.mails)
      return true
    },
    save,
    schedule() {
      if (pending) return
      pending = true
      chain = chain.then(async () => {
        pending = false
        await save()
      })
    },
    flush: () => chain,
  }
}
