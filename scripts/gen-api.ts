/**
 * Generates api/*.gen.ts from the two OpenAPI documents (scripts/lib/operation-sets.ts).
 * `--check` fails on a stale copy, so a changed openapi.yaml without regenerated types cannot land.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import * as prettier from 'prettier'
import { parse } from 'yaml'
import { renderOperationSets } from './lib/operation-sets.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const SETS_SOURCE = 'api/openapi.yaml and api/control.openapi.yaml'
const targets = [
  { source: 'api/openapi.yaml', output: 'api/openapi.gen.ts' },
  { source: 'api/control.openapi.yaml', output: 'api/control.gen.ts' },
  { source: SETS_SOURCE, output: 'api/operations.gen.ts' },
] as const

const HEADER = (source: string) =>
  `// Generated from ${source} by scripts/gen-api.ts (npm run gen:api). Do not edit by hand.\n\n`

async function format(text: string): Promise<string> {
  const config = (await prettier.resolveConfig(root + 'package.json')) ?? {}
  return prettier.format(text, { ...config, parser: 'typescript' })
}

async function generate(source: string): Promise<string> {
  if (source === SETS_SOURCE) {
    const read = async (file: string) => parse(await readFile(root + file, 'utf8')) as Record<string, unknown>
    const text = renderOperationSets(await read('api/openapi.yaml'), await read('api/control.openapi.yaml'))
    return format(HEADER(source) + text)
  }
  const ast = await openapiTS(new URL(source, `file://${root}`), { alphabetize: false })
  return format(HEADER(source) + astToString(ast))
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  let stale = 0
  for (const { source, output } of targets) {
    const fresh = await generate(source)
    const path = root + output
    const current = await readFile(path, 'utf8').catch(() => '')
    if (current === fresh) continue
    if (check) {
      stale += 1
      console.error(`${output} is stale: run npm run gen:api and commit it.`)
    } else {
      await writeFile(path, fresh)
      console.log(`wrote ${output}`)
    }
  }
  if (stale > 0) process.exit(1)
  if (check) console.log('generated types are up to date')
}

await main()
