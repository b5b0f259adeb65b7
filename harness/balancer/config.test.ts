// The nginx configuration the guide shows is the one the balancer leg runs, and the leg fills in only its two marked
// lines (docs/deploying.md, "A shared mock server and production on PostgreSQL").
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { nginxConfig, NGINX_TEMPLATE } from './config.ts'

const template = readFileSync(NGINX_TEMPLATE, 'utf8')
const guide = readFileSync(new URL('../../docs/deploying.md', import.meta.url), 'utf8')

/** The template without its leading comment: what a reader copies. */
const block = template
  .split('\n')
  .filter((line) => !line.startsWith('#'))
  .join('\n')
  .trim()

describe('the balancer configuration', () => {
  test('docs/deploying.md shows the tested block word for word', () => {
    const fenced = /```nginx\n([\s\S]*?)\n\s*```/.exec(guide)?.[1]
    const shown = fenced
      ?.split('\n')
      .map((line) => line.replace(/^ {3}/, ''))
      .join('\n')
      .trim()
    expect(shown).toBe(block)
  })

  test('fills in one server line per instance and the listen address, and keeps every other line', () => {
    const conf = nginxConfig(template, '/tmp/lb', 4100, [4101, 4102, 4103])
    expect(conf).toContain(
      '  server 127.0.0.1:4101;\n  server 127.0.0.1:4102;\n  server 127.0.0.1:4103;\n  keepalive 16;\n',
    )
    expect(conf).toContain('  listen 127.0.0.1:4100;')
    expect(conf).not.toContain('filled in')
    const kept = block.split('\n').filter((line) => !line.includes('filled in'))
    for (const line of kept) expect(conf).toContain(line)
    expect(conf).toContain('access_log /tmp/lb/access.log upstream;')
  })

  test('a template that lost a marked line is refused, not half filled in', () => {
    const broken = template.replace('# filled in: where the balancer listens', '')
    expect(() => nginxConfig(broken, '/tmp/lb', 4100, [4101])).toThrow(
      'Failed to fill in the nginx template: a marked line is missing.',
    )
  })
})
