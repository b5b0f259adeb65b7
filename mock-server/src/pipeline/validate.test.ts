// The schema checks of the pipeline: a refusal is a 400 `validation_failed` whose message names the one field at
// fault or counts them, and a path parameter is checked as the client wrote it when it cannot be decoded.
import { describe, expect, test } from 'vitest'
import { createRoutes, type Route } from './openapi-docs.ts'
import { bodyText, type RawResponse } from './raw.ts'
import { validateBody, validateParameters } from './validate.ts'

function routeOf(operationId: string): Route {
  const route = createRoutes('api').find((candidate) => candidate.operationId === operationId)
  if (!route) throw new Error(`Failed to find the route of ${operationId}.`)
  return route
}

function answerOf(refusal: { response: RawResponse } | null) {
  if (!refusal) throw new Error('Failed: the body was taken.')
  return { status: refusal.response.status, body: JSON.parse(bodyText(refusal.response.body)) as unknown }
}

describe('validateBody', () => {
  test('one field at fault: the message is the field and its reason', () => {
    expect(answerOf(validateBody(routeOf('login'), { email: 'a@b.co' }))).toEqual({
      status: 400,
      body: {
        error: 'validation_failed',
        message: 'password: This field is required.',
        fields: { password: 'This field is required.' },
      },
    })
  })

  test('several fields at fault: the message counts them, and fields names each', () => {
    expect(answerOf(validateBody(routeOf('login'), {}))).toEqual({
      status: 400,
      body: {
        error: 'validation_failed',
        message: '2 fields need attention.',
        fields: { email: 'This field is required.', password: 'This field is required.' },
      },
    })
  })
})

describe('validateParameters', () => {
  test('a path parameter is decoded, or checked as written when it is no valid percent-encoding', () => {
    const route = routeOf('updateProcessStep')
    expect(validateParameters(route, new URL('http://x/api/process/steps/a%20b'))).toEqual({
      query: {},
      path: { id: 'a b' },
    })
    expect(validateParameters(route, new URL('http://x/api/process/steps/%E0'))).toEqual({
      query: {},
      path: { id: '%E0' },
    })
  })
})
