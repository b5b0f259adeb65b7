// Helpers of the signed-in-area and supporting-services specs: the sinks, what the page sent, the served build.
// The sinks are read through the `mock` fixture (api/mock-client.ts).
import type { APIRequestContext, Page } from '@playwright/test'
import type { components } from '../api/openapi.gen.ts'
import type { RecorderSession } from '../api/mock-client.ts'
import { expect, type MockControl } from './fixtures.ts'

export type { RecorderSession } from '../api/mock-client.ts'
type BuildInfo = components['schemas']['BuildInfo']

/** One recording as the sink has it now, by its id; undefined when the sink never saw it. */
export async function readRecorderSession(
  mock: MockControl,
  id: string,
): Promise<RecorderSession | undefined> {
  return (await mock.recorderSessions()).find((session) => session.id === id)
}

/**
 * The id of the next recording the page starts (the `sessionID` of the tracker's next `POST /ingest/v1/web/start`).
 * The sink cannot tell an anonymous recording of this test from another test's; the page's own start call can.
 */
export async function waitForRecordingStart(page: Page): Promise<string> {
  const response = await page.waitForResponse(
    (one) => one.request().method() === 'POST' && new URL(one.url()).pathname === '/ingest/v1/web/start',
  )
  return ((await response.json()) as { sessionID: string }).sessionID
}

/**
 * Has the tracker send what it holds now, by moving the pointer out of the page and back.
 * @openreplay/tracker 19 ignores a second leave within 500 ms, so call it from a poll rather than once.
 */
export async function flushRecorder(page: Page): Promise<void> {
  await page.mouse.move(5, 5)
  await page.mouse.move(-5, -5)
}

/** A Sentry event as the page sent it (the sink's summary leaves the user out). */
export interface SentEvent {
  event_id: string
  user?: Record<string, unknown>
  exception?: { values?: { type?: string; value?: string }[] }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Reads the events out of the Sentry envelopes the page posts, from now on, as they go. */
export function collectSentEvents(page: Page): SentEvent[] {
  const events: SentEvent[] = []
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !/\/api\/\d+\/envelope\/?$/.test(new URL(request.url()).pathname))
      return
    // An envelope: a header line, then per item a header line and a payload line (events carry no attachments).
    const lines = (request.postData() ?? '').split('\n')
    for (let index = 1; index + 1 < lines.length; index += 2) {
      const header = parseJson(lines[index]!) as { type?: string } | null
      const payload = parseJson(lines[index + 1]!) as SentEvent | null
      if (header?.type === 'event' && payload) events.push(payload)
    }
  })
  return events
}

/** The build the server says is the newest (`/builds/latest.json`). */
export async function readServedBuild(request: APIRequestContext): Promise<BuildInfo> {
  const response = await request.get('/builds/latest.json')
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as BuildInfo
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
