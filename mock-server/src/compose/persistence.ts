// `--data FILE`: the state kept across restarts. Writes are atomic, durable and serialized, so a crash never
// leaves half a file. A failed write is reported and retried on the next change; the server keeps serving
// (docs/security/hardening.md). In production mode no pending one-time code reaches the file: hashed, a 6-digit
// code still falls to brute force by whoever reads the secret beside it (docs/security/hardening.md).
import { randomBytes } from 'node:crypto'
import * as fs from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { ControlClock } from '../shared/control-clock.ts'
import type { Mail, Mailbox } from '../control/mailbox.ts'
import type { DomainContext } from '../product/domain/context.ts'
import { z } from 'zod'
import { createSaveChain } from './save-chain.ts'
import {
  codeSchema,
  refreshTokenSchema,
  resetTokenSchema,
  sessionSchema,
  stepSchema,
  userSchema,
  type ProductSnapshot,
} from '../product/storage/records.ts'

const FORMAT = 1

interface SavedState {
  format: number
  secret: string
  clockOffsetMs: number
  store: ProductSnapshot
  mails: Mail[]
}

/** What a data file must hold, checked whole at start so a hand-edited file fails there, never mid-request. */
export const savedStateSchema = z.object({
  format: z.literal(FORMAT),
  secret: z.string().min(1),
  clockOffsetMs: z.number().finite(),
  store: z
    .object({
      users: z.array(userSchema),
      sessions: z.array(sessionSchema),
      refreshTokens: z.array(refreshTokenSchema),
      codes: z.array(codeSchema),
      resetTokens: z.array(resetTokenSchema),
      steps: z.array(stepSchema),
    })
    .partial(),
  mails: z.array(
    z.object({
      to: z.string(),
      subject: z.string(),
      purpose: z.enum(['signup', 'login', 'reset', 'account_exists', 'password_changed']),
      code: z.string().optional(),
      sent_at: z.string(),
    }),
  ),
})

/** The file operations a save makes, injectable so a test can see their order. */
export interface PersistenceFs {
  open: typeof fs.open
  rename: typeof fs.rename
  readFile: typeof fs.readFile
  readdir: typeof fs.readdir
  unlink: typeof fs.unlink
}

export interface PersistenceOptions {
  /** Production mode: no one-time code reaches the file, hashed or in clear. */
  production?: boolean
  fs?: PersistenceFs
  /** Told, in one line without secrets, when a scheduled write fails and when writing works again. */
  report?: (line: string) => void
}

export interface Persistence {
  /**
   * Loads what is kept and resolves true; when nothing is kept yet, runs `initialize` (the reset and seed of a first
   * start), keeps its result where the store needs it at once, and resolves false. Throws on a file it cannot read.
   */
  load(initialize: () => Promise<void>): Promise<boolean>
  /** `since`: what `failures()` said before the call moved anything; the save fails if a write has failed since. */
  save(since?: number): Promise<void>
  /** Saves soon, after any save under way. */
  schedule(): void
  flush(): Promise<void>
  /** Takes what other instances changed since (the control clock), before a call; absent for one instance's file. */
  sync?(): Promise<void>
  /** How many writes have failed so far (each undoing this instance's unsaved moves); absent for a file. */
  failures?(): number
}

export function createPersistence(
  file: string,
  domain: DomainContext,
  mailbox: Mailbox,
  clock: ControlClock,
  options: PersistenceOptions = {},
): Persistence {
  const files = options.fs ?? fs
  let failing = false
  const report = options.report ?? ((line: string) => console.error(line))
  const mails = async (): Promise<Mail[]> =>
    options.production
      ? (await mailbox.snapshot()).map(({ code: _code, ...mail }) => mail)
      : mailbox.snapshot()
  async function save(): Promise<void> {
    const state: SavedState = {
      format: FORMAT,
      secret: domain.config.secret,
      clockOffsetMs: options.production ? 0 : clock.offsetMs(),
      store: options.production
        ? { ...(await domain.store.snapshot()), codes: [] }
        : await domain.store.snapshot(),
      mails: await mails(),
    }
    const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
    try {
      const handle = await files.open(temporary, 'w', 0o600)
      try {
        await handle.writeFile(JSON.stringify(state))
        // On the disk before the rename, or a crash could leave the new name on an empty file.
        await handle.sync()
      } finally {
        await handle.close()
      }
      await files.rename(temporary, file)
    } catch (error) {
      await files.unlink(temporary).catch(() => undefined)
      throw error
    }
    await syncFolder(files, dirname(file))
  }
  /** A scheduled save: a failure is reported (once until a save works again), never thrown. */
  async function saveOrReport(): Promise<void> {
    try {
      await save()
      if (failing) report(`Saved ${file} again; the state it missed is on the disk.`)
      failing = false
    } catch (error) {
      if (!failing) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).name
        report(
          `Failed to save ${file} (${reason}); the state stays in memory and the next change tries again.`,
        )
      }
      failing = true
    }
  }
  /** Temporary files of writes a crash interrupted (`<file>.<8 hex>.tmp`). */
  async function removeStaleTemporaries(): Promise<void> {
    const pattern = new RegExp(`^${escapeRegExp(basename(file))}\\.[0-9a-f]{8}\\.tmp$`)
    const names = await files.readdir(dirname(file)).catch(() => [] as string[])
    for (const name of names) {
      if (pattern.test(name)) await files.unlink(join(dirname(file), name)).catch(() => undefined)
    }
  }
  return {
    async load(initialize) {
      await removeStaleTemporaries()
      let text: string
      try {
        text = await files.readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return initialize().then(() => false)
        throw new Error(`Failed to read ${file}: ${(error as Error).message}.`, { cause: error })
      }
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch (error) {
        // Where, never what: the message of JSON.parse quotes the file, which may be anything.
        const at = /position (\d+)/.exec((error as Error).message)?.[1]
        throw new Error(`Failed to read ${file}: it is not JSON${at ? ` (at character ${at})` : ''}.`, {
          cause: error,
        })
      }
      const format = (json as { format?: unknown } | null)?.format
      if (format !== FORMAT) throw new Error(`Failed to read ${file}: unknown format ${String(format)}.`)
      const parsed = savedStateSchema.safeParse(json)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!
        throw new Error(
          `Failed to read ${file}: ${issue.path.join('.') || '(the whole file)'}: ${issue.message}.`,
        )
      }
      const state = parsed.data
      domain.config.secret = state.secret
      // Production runs on the real clock: a moved mock clock in the file (from development) is ignored.
      if (!options.production) clock.set(Date.now() + state.clockOffsetMs)
      await domain.store.restore(state.store)
      await mailbox.restore(state.mails)
      return true
    },
    save,
    ...createSaveChain(saveOrReport),
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Makes the rename itself durable; a folder that cannot be opened for that (some platforms) is left as is. */
async function syncFolder(files: PersistenceFs, folder: string): Promise<void> {
  let handle
  try {
    handle = await files.open(folder, 'r')
    await handle.sync()
  } catch {
    // Best effort: the file's own contents are already on the disk.
  } finally {
    await handle?.close()
  }
}
