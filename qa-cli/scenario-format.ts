// What the QA command line prints for people: tables and short sentences made from the control surface's answers.
// Pure: each function takes the answer, the server's time where an age is shown, and a Style; no I/O, no clock.
import type { ArmedScenario, Clock, ScenarioInfo } from '#api/mock-client.ts'
import { visible, type Style } from './terminal-style.ts'

/** A cell, and how it is painted once padded (so colour codes never count towards a column's width). */
export type Cell = string | { text: string; paint: (text: string) => string }

/** A cell's text, the server's control characters shown as escapes (terminal-style.ts `visible`). */
const textOf = (cell: Cell) => visible(typeof cell === 'string' ? cell : cell.text)

/** Columns padded to their widest cell, two spaces apart, the heading in bold; the last column is not padded. */
export function formatTable(headings: string[], rows: Cell[][], style: Style): string[] {
  const widths = headings.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => textOf(row[column] ?? '').length)),
  )
  const line = (cells: Cell[], paintAll?: (text: string) => string) =>
    cells
      .map((cell, column) => {
        const text = column === cells.length - 1 ? textOf(cell) : textOf(cell).padEnd(widths[column]!)
        const painted = typeof cell === 'string' ? text : cell.paint(text)
        return paintAll ? paintAll(painted) : painted
      })
      .join('  ')
      .trimEnd()
  return [line(headings, style.bold), ...rows.map((row) => line(row))]
}

/**
 * A length of time as people say it, to the largest two units.
 * @example formatDuration(900_000) // '15m'; formatDuration(3_723_000) // '1h 2m'; formatDuration(250) // '250ms'
 */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms)
  if (abs < 1000) return `${Math.round(abs)}ms`
  const units = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const
  const parts: string[] = []
  let rest = Math.floor(abs / 1000) * 1000
  for (const [unit, size] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)}${unit}`)
      rest %= size
    } else if (parts.length > 0) break
  }
  return parts.join(' ')
}

/** How long ago `at` was at the server's `now` (both by the server's clock, which QA may have moved). */
export function formatAge(at: string, now: string): string {
  const ms = Date.parse(now) - Date.parse(at)
  if (Math.abs(ms) < 1000) return 'just now'
  return ms > 0 ? `${formatDuration(ms)} ago` : `in ${formatDuration(ms)}`
}

function describeOffset(offsetMs: number): string {
  if (offsetMs === 0) return 'on real time'
  return `${formatDuration(offsetMs)} ${offsetMs > 0 ? 'ahead of' : 'behind'} real time`
}

export function formatClock(clock: Clock, style: Style, moved = false): string {
  const lead = moved ? 'Moved the server clock: it is now' : 'Server clock:'
  return `${lead} ${style.bold(clock.now)} (${describeOffset(clock.offset_ms)}).`
}

function describeCalls(remaining: number | null): string {
  if (remaining === null) return 'until cleared'
  return remaining === 1 ? 'the next matching call' : `the next ${remaining} matching calls`
}

function describeExtras(scenario: ArmedScenario): string {
  const extras = [
    scenario.status !== undefined && `status ${scenario.status}`,
    scenario.delay_ms !== undefined && `${formatDuration(scenario.delay_ms)} late`,
    scenario.message !== undefined && `message "${visible(scenario.message)}"`,
  ].filter(Boolean)
  return extras.length > 0 ? ` (${extras.join(', ')})` : ''
}

/** What was armed, for whom, on which calls and for how many. */
export function formatArmed(scenario: ArmedScenario, style: Style): string {
  const who = scenario.email ? style.bold(visible(scenario.email)) : 'every account'
  const on = scenario.operation
    ? `${style.bold(visible(scenario.operation))} calls`
    : 'every call it applies to'
  return `Armed ${style.cyan(visible(scenario.name))}${describeExtras(scenario)} for ${who} on ${on}: it serves ${describeCalls(scenario.remaining)}.`
}

export function formatCleared(cleared: number, email: string | undefined): string {
  const whose = email ? ` for ${email}` : ''
  if (cleared === 0) return `Nothing was armed${whose}.`
  return `Disarmed ${cleared} scenario${cleared === 1 ? '' : 's'}${whose}.`
}

export function formatReset(): string {
  return 'Reset: accounts, clock, scenarios, mailbox and journal are back to the seed state.'
}

/** The scenarios armed now, then every scenario that can be armed. */
export function formatScenarios(
  list: { available: ScenarioInfo[]; armed: ArmedScenario[] },
  style: Style,
): string[] {
  const armed =
    list.armed.length === 0
      ? ['Nothing is armed.']
      : [
          `${style.bold(`Armed now (${list.armed.length})`)}, earliest first:`,
          ...formatTable(
            ['SCENARIO', 'FOR', 'ON', 'SERVES', 'EXTRAS'],
            list.armed.map((one) => [
              { text: one.name, paint: style.cyan },
              one.email ?? 'every account',
              one.operation ?? 'every call',
              one.remaining === null ? 'until cleared' : `${one.remaining} more`,
              describeExtras(one).slice(2, -1),
            ]),
            style,
          ).map((line) => `  ${line}`),
        ]
  const available = formatTable(
    ['SCENARIO', 'WHAT THE MATCHING CALL ANSWERS'],
    list.available.map((one) => [{ text: one.name, paint: style.cyan }, one.description]),
    style,
  ).map((line) => `  ${line}`)
  return [
    ...armed,
    '',
    `${style.bold(`Scenarios to arm (${list.available.length})`)}:`,
    ...available,
    '',
    style.dim('Arm one: npm run scenario -- <scenario> --email <address> [--operation <id>] [--times <n>]'),
  ]
}
