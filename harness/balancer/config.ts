// The balancer leg's nginx configuration: the tested block of auth-shell.nginx.conf, which docs/deploying.md shows
// word for word (config.test.ts holds them together), inside the few lines a private nginx needs.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const NGINX_TEMPLATE = fileURLToPath(new URL('auth-shell.nginx.conf', import.meta.url))

/**
 * The tested block with its two marked lines filled in, inside the few lines a private nginx needs: its files in
 * `dir`, and an access log naming the instance each call went to.
 */
export function nginxConfig(template: string, dir: string, listen: number, ports: number[]): string {
  const lines = template.split('\n')
  const marked = (what: string) => lines.findIndex((line) => line.includes(`# filled in: ${what}`))
  const upstream = marked('one line per instance')
  const listenAt = marked('where the balancer listens')
  if (upstream < 0 || listenAt < 0)
    throw new Error('Failed to fill in the nginx template: a marked line is missing.')
  lines.splice(listenAt, 1, `  listen 127.0.0.1:${listen};`)
  lines.splice(upstream, 1, ...ports.map((port) => `  server 127.0.0.1:${port};`))
  const block = lines.join('\n')
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${join(dir, name)};`)
    .join('\n')
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    "  log_format upstream '$upstream_addr $status';",
    `  access_log ${join(dir, 'access.log')} upstream;`,
    temp,
    block,
    '}',
    '',
  ].join('\n')
}
