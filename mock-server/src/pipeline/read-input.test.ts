// The input step: an operation that takes no body never reads one, whatever the request says about it; one that
// takes a body checks its media type before a byte is read.
import { describe, expect, test } from 'vitest'
import { createRoutes, type Route } from './openapi-docs.ts'
import { bodyFrom, type RawRequest } from './raw.ts'
import { readInput } from './read-input.ts'

function routeOf(operationId: string): Route {
  const route = [...createRoutes('api'), ...createRoutes('control')].find(
    (candidate) => candidate.operationId === operationId,
  )
  if (!route) throw new Error(`Failed to find the route of ${operationId}.`)
  return route
}

function rawRequest(
  path: string,
  headers: Record<string, string>,
  readBody: RawRequest['readBody'],
): RawRequest {
  return {
    method: 'GET',
    url: path,
    headers,
    readBody,
    ip: '127.0.0.1',
    secure: false,
    origin: 'http://127.0.0.1',
  }
}

const neverRead: RawRequest['readBody'] = () => {
  throw new Error('Failed: the body was read.')
}

describe('readInput', () => {
  test.each(['getMe', 'deleteSession', 'getMailbox'])(
    '%s never reads the body, whatever its type and encoding',
    async (operationId) => {
      const route = routeOf(operationId)
      const path = route.template + (operationId === 'getMailbox' ? '?email=a%40b.co' : '')
      const headers = { 'content-type': 'text/plain', 'content-encoding': 'br', 'content-length': '102400' }
      const input = await readInput(route, rawRequest(path, headers, neverRead), new URL(path, 'http://x'))
      expect(input).toMatchObject({ body: undefined })
    },
  )

  test('an operation that takes a JSON body refuses another media type (415) before reading it', async () => {
    const route = routeOf('login')
    const input = await readInput(
      route,
      rawRequest('/api/auth/login', { 'content-type': 'text/plain' }, neverRead),
      new URL('/api/auth/login', 'http://x'),
    )
    expect(input).toMatchObject({ response: { status: 415 } })
  })

  test('a body over the limit is a 413; one of its schema is the input', async () => {
    const route = routeOf('login')
    const url = new URL('/api/auth/login', 'http://x')
    const json = { 'content-type': 'application/json' }
    const big = new TextEncoder().encode(JSON.stringify({ email: 'x'.repeat(route.maxBodyBytes) }))
    expect(await readInput(route, rawRequest(url.pathname, json, bodyFrom(big)), url)).toMatchObject({
      response: { status: 413 },
    })
    const body = { email: 'a@b.co', password: 'a long enough passphrase' }
    const fits = new TextEncoder().encode(JSON.stringify(body))
    expect(await readInput(route, rawRequest(url.pathname, json, bodyFrom(fits)), url)).toEqual({
      body,
      query: {},
      path: {},
    })
  })
})
