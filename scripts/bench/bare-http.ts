// The bench's floor: the benched routes on node:http alone (scripts/bench/reference-logic.ts). `--port <n>`.
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { me, NO_STORE, refresh, signIn } from './reference-logic.ts'

const { values } = parseArgs({ options: { port: { type: 'string' } } })
createServer((request, response) => {
  const answer = (status: number, body: unknown) =>
    response.writeHead(status, NO_STORE).end(JSON.stringify(body))
  const path = request.url?.split('?')[0]
  if (request.method === 'GET' && path === '/api/_auth/session') return answer(200, {})
  if (request.method === 'GET' && path === '/api/me')
    return void me(request.headers.authorization).then(({ status, body }) => answer(status, body))
  if (request.method === 'POST' && (path === '/api/refresh_token' || path === '/api/auth/login')) {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      let body: unknown
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return answer(400, { error: 'invalid_json' })
      }
      const run =
        path === '/api/auth/login' ? signIn().then((pair) => ({ status: 200, body: pair })) : refresh(body)
      void run.then(({ status, body }) => answer(status, body))
    })
    return
  }
  answer(404, { error: 'not_found' })
}).listen(Number(values.port ?? 0), '127.0.0.1')
