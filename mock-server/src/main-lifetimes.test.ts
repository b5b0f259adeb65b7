// `npm run mock -- --access-ttl … --refresh-ttl …` as an operator starts it for the contract suite's real expiry
// (docs/mock-server.md, Flags): a lifetime above its bound stops the start with one line; one taken shows in the
// start line and in config.json's `tokenLifetimes`; at the defaults the start line is as it always was.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runMain } from '../testing/run-main.ts'
import { scratchDir } from '../testing/scratch-dir.ts'

const LISTENING = /Mock server listening on (http:\/\/\S+).*\n/

/** A built app of its own, so the server writes config.json. */
function builtApp(): string {
  const dir = scratchDir('lifetimes-web')
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title></body>')
  return dir
}

test.each([
  [
    ['--access-ttl', '2h'],
    'Failed to start: --access-ttl must be at most 1h, not 2h: an access token cannot be revoked before it expires.',
  ],
  [
    ['--refresh-ttl', '31d'],
    'Failed to start: --refresh-ttl must be at most 30d, not 31d: a session, and a stolen session cookie with it, would last that long.',
  ],
])(
  '%j stops the start with one line naming the flag, the value and the bound (exit 2)',
  async (args, line) => {
    const refused = await runMain(
      ['--port', '0', '--web', 'none', '--production', ...args],
      /Failed to start|listening on/,
    )
    expect(await refused.code).toBe(2)
    expect(refused.read().trim()).toBe(line)
  },
  30_000,
)

test('--production --access-ttl 30s: the start line says so, and config.json names the lifetimes in whole seconds', async () => {
  const server = await runMain(
    ['--port', '0', '--web', builtApp(), '--production', '--access-ttl', '30s'],
    LISTENING,
  )
  const origin = LISTENING.exec(server.output)![1]!
  expect(server.output).toContain(
    `Mock server listening on ${origin} (production mode: no /__mock; access tokens live 30s)\n`,
  )
  const config = (await (await fetch(`${origin}/config.json`)).json()) as { tokenLifetimes: unknown }
  expect(config.tokenLifetimes).toEqual({ accessSeconds: 30, refreshSeconds: 86_400 })
  server.stop()
  expect(await server.code).toBe(0)
}, 30_000)

test('at the bounds the start goes on; at the defaults the start line is as it always was', async () => {
  const bounds = await runMain(
    ['--port', '0', '--web', 'none', '--access-ttl', '1h', '--refresh-ttl', '30d'],
    LISTENING,
  )
  const at = LISTENING.exec(bounds.output)![1]!
  expect(bounds.output).toContain(
    `Mock server listening on ${at} (access tokens live 1h; refresh families live 30d)\n`,
  )
  bounds.stop()
  expect(await bounds.code).toBe(0)
  const defaults = await runMain(
    ['--port', '0', '--web', 'none', '--production', '--access-ttl', '15m', '--refresh-ttl', '24h'],
    LISTENING,
  )
  const origin = LISTENING.exec(defaults.output)![1]!
  expect(defaults.output).toContain(`Mock server listening on ${origin} (production mode: no /__mock)\n`)
  defaults.stop()
  expect(await defaults.code).toBe(0)
}, 60_000)
