/**
 * Per check, why it ran against a CONTRACT_TARGET or not (docs/decisions/016-contract-target.md): the not-checkable
 * checks with their reasons, and the checks that ran because the target has the settings they asked for.
 */
import { relative } from 'node:path'
import type { TestCase, TestProject } from 'vitest/node'
import { NOT_CHECKABLE } from '#contracts/support/target.ts'

/** Every test of this run in `project`, with its file relative to the project's root. */
export function testsOf(project: TestProject): { file: string; test: TestCase }[] {
  return project.vitest.state
    .getTestModules()
    .filter((module) => module.project.name === project.name)
    .flatMap((module) =>
      [...module.children.allTests()].map((test) => ({
        file: relative(project.config.root, module.moduleId),
        test,
      })),
    )
}

/** Each key with how often it occurs, most frequent first, one indented line each. */
function countedLines(keys: string[]): string[] {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, count]) => `  ${String(count).padStart(4)}  ${key}`)
}

export interface NotCheckableTest {
  file: string
  name: string
  /** Why, as the test's skip note says it (after the NOT_CHECKABLE prefix). */
  reason: string
}

/** The tests of this run that ended as not checkable against the target, with their reasons. */
export function listNotCheckable(project: TestProject): NotCheckableTest[] {
  return testsOf(project).flatMap(({ file, test }) => {
    const result = test.result()
    const note = result.state === 'skipped' ? result.note : undefined
    return note?.startsWith(NOT_CHECKABLE)
      ? [{ file, name: test.fullName, reason: note.slice(NOT_CHECKABLE.length).replace(/^:\s*/, '') }]
      : []
  })
}

export interface MatchedSettingsTest {
  file: string
  name: string
  /** The settings it asked for that the target has (`refreshGraceMs 10000`): why it could run there. */
  settings: string[]
}

/** The tests of this run that ran against the target because its settings equal the ones they asked for. */
export function listMatchedSettings(project: TestProject): MatchedSettingsTest[] {
  return testsOf(project).flatMap(({ file, test }) => {
    const settings = test.meta().targetSettings
    return settings && ['passed', 'failed'].includes(test.result().state)
      ? [{ file, name: test.fullName, settings }]
      : []
  })
}

/** How many checks ran on each setting equal to the target's, most frequent first; empty when none did. */
export function formatMatchedSettings(target: string, tests: MatchedSettingsTest[]): string {
  if (tests.length === 0) return ''
  return [
    `Against ${target}: ${tests.length} of the checks that ran asked for settings the target has:`,
    ...countedLines(tests.flatMap((test) => test.settings)),
  ].join('\n')
}

/** The not-checkable tests counted by reason, most frequent first. */
export function formatNotCheckable(target: string, checked: number, tests: NotCheckableTest[]): string {
  return [
    `Against ${target}: ${checked} checks ran; ${tests.length} are ${NOT_CHECKABLE}:`,
    ...countedLines(tests.map((test) => test.reason)),
  ].join('\n')
}
