/**
 * Per check, why it ran against a CONTRACT_TARGET or not (docs/decisions/016-contract-target.md): the not-checkable
 * checks with their reasons, and the checks that ran because the target has the settings they asked for.
 */
import { relative } from 'node:path'
import type { TestProject } from 'vitest/node'
import { NOT_CHECKABLE } from '#contracts/support/target.ts'

export interface NotCheckableTest {
  file: string
  name: string
  /** Why, as the test's skip note says it (after the NOT_CHECKABLE prefix). */
  reason: string
}

/** The tests of this run that ended as not checkable against the target, with their reasons. */
export function listNotCheckable(project: TestProject): NotCheckableTest[] {
  return project.vitest.state
    .getTestModules()
    .filter((module) => module.project.name === project.name)
    .flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const result = test.result()
        const note = result.state === 'skipped' ? result.note : undefined
        return note?.startsWith(NOT_CHECKABLE)
          ? [
              {
                file: relative(project.config.root, module.moduleId),
                name: test.fullName,
                reason: note.slice(NOT_CHECKABLE.length).replace(/^:\s*/, ''),
              },
            ]
          : []
      }),
    )
}

export interface MatchedSettingsTest {
  file: string
  name: string
  /** The settings it asked for that the target has (`refreshGraceMs 10000`): why it could run there. */
  settings: string[]
}

/** The tests of this run that ran against the target because its settings equal the ones they asked for. */
export function listMatchedSettings(project: TestProject): MatchedSettingsTest[] {
  return project.vitest.state
    .getTestModules()
    .filter((module) => module.project.name === project.name)
    .flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const settings = test.meta().targetSettings
        return settings && ['passed', 'failed'].includes(test.result().state)
          ? [{ file: relative(project.config.root, module.moduleId), name: test.fullName, settings }]
          : []
      }),
    )
}

/** How many checks ran on each setting equal to the target's, most frequent first; empty when none did. */
export function formatMatchedSettings(target: string, tests: MatchedSettingsTest[]): string {
  if (tests.length === 0) return ''
  const bySetting = new Map<string, number>()
  for (const setting of tests.flatMap((test) => test.settings))
    bySetting.set(setting, (bySetting.get(setting) ?? 0) + 1)
  return [
    `Against ${target}: ${tests.length} of the checks that ran asked for settings the target has:`,
    ...[...bySetting]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([setting, count]) => `  ${String(count).padStart(4)}  ${setting}`),
  ].join('\n')
}

/** The not-checkable tests counted by reason, most frequent first. */
export function formatNotCheckable(target: string, checked: number, tests: NotCheckableTest[]): string {
  const byReason = new Map<string, number>()
  for (const test of tests) byReason.set(test.reason, (byReason.get(test.reason) ?? 0) + 1)
  return [
    `Against ${target}: ${checked} checks ran; ${tests.length} are ${NOT_CHECKABLE}:`,
    ...[...byReason]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => `  ${String(count).padStart(4)}  ${reason}`),
  ].join('\n')
}
