// The benched routes on a bare Express 5 app with its JSON body parser (scripts/bench/reference-logic.ts). `--port <n>`.
import { parseArgs } from 'node:util'
import express from 'express'
import { me, NO_STORE, refresh, signIn } from './reference-logic.ts'

const { values } = parseArgs({ options: { port: { type: 'string' } } })
const app = express()
app.disable('x-powered-by')
app.disable('etag')
app.get('/api/_auth/session', (_request, response) => void response.set(NO_STORE).json({}))
app.get('/api/me', async (request, response) => {
  const { status, body } = await me(request.get('authorization'))
  response.status(status).set(NO_STORE).json(body)
})
app.post('/api/auth/login', async (_request, response) => void response.set(NO_STORE).json(await signIn()))
app.post('/api/refresh_token', express.json(), async (request, response) => {
  const { status, body } = await refresh(request.body)
  response.status(status).set(NO_STORE).json(body)
})
app.listen(Number(values.port ?? 0), '127.0.0.1')
