// Helpers of the signed-in-area and supporting-services specs: the mock server's sinks (what the error reporting
// and the session recorder sent), the served build, and what the app says about them. Read-only use of fixtures.ts.
import type { APIRequestContext, Page } from '@playwright/test'
import { expect } from './fixtures.ts'

export interface SentryEvent {
  event_id: string
  type: string
  level?: string
  environment?: string
  message?: string
  exception?: { type?: string; value?: string }[]
}

export interface RecorderSession {
  id: string
  project_key: string
  user_id: string | null
  metadata: Record<string, string>
  batches: number
  messages: number
}

export interface BuildInfo {
  id: string
  timestamp: number
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path)
  if (!response.ok()) throw new Error(`Failed to read ${path}: ${response.status()} ${await response.text()}`)
  return (await response.json()) as T
}

/** What the app's error reporting sent to the mock server's Sentry sink, oldest first. */
export async function readSentryEvents(request: APIRequestContext): Promise<SentryEvent[]> {
  return (await getJson<{ events: SentryEvent[] }>(request, '/__mock/sentry/events')).events
}

/** The session recordings the mock server's OpenReplay sink saw. */
export async function readRecorderSessions(request: APIRequestContext): Promise<RecorderSession[]> {
  return (await getJson<{ sessions: RecorderSession[] }>(request, '/__mock/recorder/sessions')).sessions
}

/** The build the server says is the newest (`/builds/latest.json`). */
export async function readServedBuild(request: APIRequestContext): Promise<BuildInfo> {
  return getJson<BuildInfo>(request, '/builds/latest.json')
}

/** Acts out a deployment: the server serves `id` as the newest build (`POST /__mock/build`). */
export async function serveBuild(request: APIRequestContext, id: string): Promise<void> {
  const response = await request.post('/__mock/build', { data: { id } })
  expect(response.status(), await response.text()).toBe(200)
}

/** The step of the process page named `title`. */
export function stepItem(page: Page, title: string) {
  return page.getByRole('main').getByRole('listitem', { name: title })
}

/** The schedule field of a step. */
export function scheduleField(page: Page, title: string) {
  return page.getByRole('textbox', { name: `Schedule “${title}”` })
}

/** The picker's calendar, as react-datepicker names it. */
export function pickerDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Choose Date and Time' })
}
