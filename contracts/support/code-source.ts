/**
 * Where the suite reads a target's one-time codes when it has no /__mock (docs/contract-suite.md, "Codes without
 * /__mock"): the mail the target sent to the suite's SMTP capture (CONTRACT_SMTP_PORT, contracts/support/mail-capture.ts),
 * or an adapter module (CONTRACT_CODE_ADAPTER) that finds them wherever the target's mail goes.
 *
 * Mail leaves a server behind the call that caused it, so a code is read once a mail newer than the last call
 * that asked for one has come: a resend's new code, never the one it replaced.
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { MailPurpose } from '#api/mock-client.ts'
import { mailFileOf, type CapturedCode } from '#contracts/support/mail-capture.ts'
import { CODE_MAIL_SUBJECTS } from '#mock-server/shared/constants.ts'

/**
 * How long a code may take to arrive after the call that asked for it: past the first SMTP retry (10 s), and short of
 * a check's 30 s, so that a code that never comes fails with this source's message rather than the check's time-out.
 */
export const CODE_WAIT_MS = 20_000
const POLL_MS = 50

/**
 * An adapter (CONTRACT_CODE_ADAPTER): the newest code mailed to `email` for `purpose`, sent at or after `since` (ms
 * since the epoch, by the suite's clock) when given; null while there is none. The suite asks again until one comes.
 */
export type CodeAdapter = (query: {
  email: string
  purpose: MailPurpose
  since: number | undefined
}) => Promise<string | null> | string | null

export interface CodeSource {
  /** Where the codes come from, for messages: `the mail sent to smtp://127.0.0.1:2525`. */
  describe: string
  latestCode(email: string, purpose: MailPurpose): Promise<string>
  /** A call that mails `email` a `purpose` code was answered 2xx; it was sent at `sentAt`. */
  noteSent(email: string, purpose: MailPurpose, sentAt: number): void
  /** How many `purpose` codes came for `email` so far, where the source can tell (the SMTP capture can, an adapter not). */
  countCodes?(email: string, purpose: MailPurpose): number
}

const keyOf = (email: string, purpose: MailPurpose) => `${purpose} ${email.trim().toLowerCase()}`

/** A code source over `find`, which answers the newest code sent since a time, or null. */
export function createCodeSource(describe: string, find: CodeAdapter, waitMs = CODE_WAIT_MS): CodeSource {
  const asked = new Map<string, number>()
  return {
    describe,
    noteSent(email, purpose, sentAt) {
      const key = keyOf(email, purpose)
      asked.set(key, Math.max(asked.get(key) ?? 0, sentAt))
    },
    async latestCode(email, purpose) {
      const since = asked.get(keyOf(email, purpose))
      const deadline = Date.now() + waitMs
      for (;;) {
        const code = await answerBy(find({ email, purpose, since }), deadline, describe)
        if (code !== null && code !== undefined) return checkedCode(code, describe)
        if (Date.now() >= deadline)
          throw new Error(
            `Failed to read a code: no ${purpose} mail for ${email} came within ${waitMs / 1000} s${
              since === undefined ? '' : ' of the call that asked for it'
            } (${describe}).`,
          )
        await new Promise((done) => setTimeout(done, POLL_MS))
      }
    },
  }
}

/** `answer`, or a failure naming `describe` once `deadline` (ms since the epoch) has passed without one. */
async function answerBy<T>(answer: Promise<T> | T, deadline: number, describe: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Failed to read a code: ${describe} did not answer in time.`)),
      Math.max(0, deadline - Date.now()) + POLL_MS,
    )
  })
  try {
    return await Promise.race([answer, late])
  } finally {
    clearTimeout(timer)
  }
}

/** A code as the product's are (api/openapi.yaml: six digits); anything else is the source's mistake, not the target's. */
function checkedCode(code: unknown, describe: string): string {
  if (typeof code === 'string' && /^\d{6}$/.test(code)) return code
  throw new Error(
    `Failed to read a code: ${describe} answered ${JSON.stringify(code)}, not six digits or null.`,
  )
}

/** The codes captured in `dir` for `email`, oldest first. */
function capturedCodes(dir: string, email: string): CapturedCode[] {
  const file = mailFileOf(dir, email)
  if (!existsSync(file)) return []
  const text = readFileSync(file, 'utf8')
  // The capture appends whole lines; a line still being written has no newline yet.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CapturedCode)
}

/** The newest code in the capture folder `dir` for the query, or null. */
export function findCapturedCode(dir: string): CodeAdapter {
  return ({ email, purpose, since }) =>
    capturedCodes(dir, email)
      .filter((mail) => mail.purpose === purpose && (since === undefined || mail.receivedAt >= since))
      .at(-1)?.code ?? null
}

/** How many `purpose` codes the capture folder `dir` holds for `email`. */
export const countCapturedCodes =
  (dir: string) =>
  (email: string, purpose: MailPurpose): number =>
    capturedCodes(dir, email).filter((mail) => mail.purpose === purpose).length

/** Loads CONTRACT_CODE_ADAPTER's default export (a path from the working directory, or absolute). */
export async function loadCodeAdapter(path: string): Promise<CodeAdapter> {
  const file = isAbsolute(path) ? path : resolve(path)
  if (!existsSync(file)) throw new Error(`CONTRACT_CODE_ADAPTER names no file: ${JSON.stringify(path)}.`)
  const loaded = (await import(pathToFileURL(file).href)) as { default?: unknown }
  if (typeof loaded.default !== 'function')
    throw new Error(
      `CONTRACT_CODE_ADAPTER ${path} must export as default a function ({ email, purpose, since }) => code or null.`,
    )
  return loaded.default as CodeAdapter
}

/**
 * The run's code source: the SMTP capture when CONTRACT_SMTP_PORT is set, else CONTRACT_CODE_ADAPTER's, else none
 * (the target's /__mock mailbox, when it has one, is read through the mock client instead).
 */
export async function readCodeSource(
  env: NodeJS.ProcessEnv,
  captureDir: string | null,
): Promise<CodeSource | null> {
  // Both given is refused once, by the global setup (contracts/support/mail-capture.ts).
  const adapter = env.CONTRACT_CODE_ADAPTER?.trim()
  if (captureDir !== null)
    return {
      ...createCodeSource(
        `the mail the target sent to smtp://127.0.0.1:${env.CONTRACT_SMTP_PORT?.trim()}`,
        findCapturedCode(captureDir),
      ),
      countCodes: countCapturedCodes(captureDir),
    }
  if (adapter) return createCodeSource(`CONTRACT_CODE_ADAPTER ${adapter}`, await loadCodeAdapter(adapter))
  return null
}

/**
 * The code a call asks the server to mail, when it is one that does (api/openapi.yaml: signup, sendOtp,
 * forgotPassword) and names an address; else null.
 */
export function mailedCodeOf(
  method: string,
  path: string,
  body: unknown,
): { email: string; purpose: MailPurpose } | null {
  if (method.toLowerCase() !== 'post' || typeof body !== 'object' || body === null) return null
  const { email, purpose } = body as { email?: unknown; purpose?: unknown }
  if (typeof email !== 'string') return null
  const route = path.split('?')[0]
  if (route === '/api/auth/signup') return { email, purpose: 'signup' }
  if (route === '/api/auth/forgot') return { email, purpose: 'reset' }
  if (
    route === '/api/auth/otp/send' &&
    typeof purpose === 'string' &&
    Object.hasOwn(CODE_MAIL_SUBJECTS, purpose)
  )
    return { email, purpose: purpose as MailPurpose }
  return null
}
