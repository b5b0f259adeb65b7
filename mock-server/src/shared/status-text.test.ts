// The status table stands in for node:http's in code the browser demo runs: it must say what Node says.
import { STATUS_CODES } from 'node:http'
import { expect, test } from 'vitest'
import { STATUS_TEXT } from './status-text.ts'

test("the reason phrases are node:http's, status for status", () => {
  expect(STATUS_TEXT).toEqual(STATUS_CODES)
})
