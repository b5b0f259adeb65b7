// The built app served beside the API: deep links get index.html, assets are cached, config.json says mock.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { beforeAll, expect, test } from 'vitest'
import { createApp } from '../app.ts'

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'web-root-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log(1)')
  writeFileSync(join(root, 'config.json'), JSON.stringify({ apiBase: '', environment: 'demo', mock: false }))
})

const hasher = { memoryCost: 1024, timeCost: 1 }

test('deep links get index.html; the API keeps its JSON 404', async () => {
  const app = createApp({ webRoot: root, hasher })
  const page = await request(app).get('/process').expect(200)
  expect(page.text).toContain('<title>app</title>')
  expect(page.headers['cache-control']).toBe('no-cache')
  await request(app).get('/some/unknown/page').expect(200)
  const api = await request(app).get('/api/nope').expect(404)
  expect(api.body.error).toBe('not_found')
})

test('hashed assets are cached for good, and a missing one is a 404, not the page', async () => {
  const app = createApp({ webRoot: root, hasher })
  const asset = await request(app).get('/assets/app-1a2b.js').expect(200)
  expect(asset.headers['cache-control']).toContain('immutable')
  await request(app).get('/assets/app-gone.js').expect(404)
})

test('config.json says mock: true on the mock server and false in production mode, and whether external sign-in works', async () => {
  const mock = await request(createApp({ webRoot: root, hasher }))
    .get('/config.json')
    .set('Host', 'app.test:8080')
  expect(mock.body).toEqual({
    apiBase: '',
    environment: 'demo',
    mock: true,
    externalSignIn: true,
    sentryDsn: '{protocol}//mock@{host}/1',
    recorder: { projectKey: 'mock-project', host: '{origin}' },
  })
  const production = await request(createApp({ webRoot: root, hasher, production: true })).get('/config.json')
  expect(production.body).toEqual({ apiBase: '', environment: 'demo', mock: false, externalSignIn: false })
  const configured = await request(
    createApp({
      webRoot: root,
      hasher,
      production: true,
      externalSignIn: { authorizeUrl: () => 'https://id.example/authorize', exchange: async () => null },
    }),
  ).get('/config.json')
  expect(configured.body.externalSignIn).toBe(true)
})
