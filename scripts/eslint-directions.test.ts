// The direction of imports (docs/architecture.md) holds only if eslint.config.js catches every spelling of a
// wrong-way import. Each case is one a reviewer got past an earlier version of the rule.
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

async function rulesBroken(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root, cache: false })
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` })
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message)
}

const PATHS = 'import-x/no-restricted-paths'
const SYNTAX = 'no-restricted-syntax'

describe('eslint.config.js refuses a wrong-way import however it is spelled', () => {
  // The first lint loads eslint.config.js and its plugins, seconds of CPU on a busy machine: done ahead, so each
  // test's time is its own.
  beforeAll(() => rulesBroken('mock-server/src/idp/x.ts', ''), 120_000)

  test.each([
    [
      'a feature importing another, with the .js suffix tsc accepts',
      'mock-server/src/idp/x.ts',
      "export * from '../product/index.js'",
      PATHS,
    ],
    [
      'the pipeline importing a feature',
      'mock-server/src/pipeline/x.ts',
      "export * from '../control/index.ts'",
      PATHS,
    ],
    [
      'the pipeline importing the demo stand-ins',
      'mock-server/src/pipeline/x.ts',
      "export * from '../browser/node-crypto.ts'",
      PATHS,
    ],
    [
      'a feature importing the composition root',
      'mock-server/src/har/x.ts',
      "export * from '../core.ts'",
      PATHS,
    ],
    ['api/ importing a floor above it, by .js', 'api/x.ts', "export * from '../harness/accounts.js'", PATHS],
    [
      'web/ importing the mock server, climbing',
      'web/src/lib/x.ts',
      "export * from '../../../mock-server/src/shared/clock.js'",
      PATHS,
    ],
    [
      'a web config importing the mock server',
      'web/x.config.ts',
      "export * from '../mock-server/src/app.ts'",
      PATHS,
    ],
    [
      'a web feature importing another',
      'web/src/features/home/x.ts',
      "export * from '../auth/validation.ts'",
      PATHS,
    ],
    [
      'a web feature importing the shell',
      'web/src/features/home/x.ts',
      "export * from '../../app/app-router.ts'",
      PATHS,
    ],
    [
      'product code importing test tooling',
      'web/src/features/home/x.ts',
      "export * from '../../test/app-harness.tsx'",
      PATHS,
    ],
    [
      'a type named by import()',
      'web/src/features/home/x.ts',
      "export type T = import('../auth/validation.ts').FieldErrors",
      SYNTAX,
    ],
    [
      'an import() of a computed path',
      'web/src/features/home/x.ts',
      'export const load = (name: string) => import(`../auth/${name}.ts`)',
      SYNTAX,
    ],
    [
      'a require made with createRequire',
      'mock-server/src/idp/x.ts',
      "import { createRequire } from 'node:module'\nexport const p = createRequire(import.meta.url)('../product/index.ts')",
      SYNTAX,
    ],
    [
      'a path that resolves to nothing',
      'web/src/lib/x.ts',
      "export * from './no-such-module.ts'",
      'import-x/no-unresolved',
    ],
  ])('%s', async (_case, file, code, rule) => {
    expect(await rulesBroken(file, code)).toContain(rule)
  })

  test('a folder added to mock-server/src later is a feature at once', () => {
    const folder = `${root}mock-server/src/zz-planted-feature`
    mkdirSync(folder)
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    // A fresh process: this one has loaded eslint.config.js, which lists the folders once, already.
    const lint = spawnSync(
      process.execPath,
      [
        `${root}node_modules/eslint/bin/eslint.js`,
        '--no-cache',
        '--stdin',
        '--stdin-filename',
        `${folder}/x.ts`,
      ],
      { cwd: root, input: "export * from '../product/index.ts'\n", encoding: 'utf8' },
    )
    expect(lint.stdout).toContain('The feature zz-planted-feature/ imports only itself')
    expect(lint.status).toBe(1)
  }, 120_000)

  test('the right-way imports pass', async () => {
    expect(await rulesBroken('mock-server/src/idp/x.ts', "export * from '../pipeline/types.ts'")).toEqual([])
    expect(
      await rulesBroken('web/src/features/home/x.ts', "export * from '../../lib/config/paths.ts'"),
    ).toEqual([])
    expect(await rulesBroken('mock-server/src/core.ts', "export * from './product/index.ts'")).toEqual([])
  })
})
