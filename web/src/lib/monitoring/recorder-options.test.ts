import { expect, test } from 'vitest'
import { getRecorderOptions } from './recorder-options.ts'
import { sanitizeNetworkCapture } from './recorder-sanitizer.ts'

test('the recorder options (docs/behaviour.md: Calls, Constants)', () => {
  expect(getRecorderOptions({ projectKey: 'mock-project', host: 'http://127.0.0.1:4010' })).toEqual({
    projectKey: 'mock-project',
    ingestPoint: 'http://127.0.0.1:4010/ingest',
    __DISABLE_SECURE_MODE: true,
    obscureTextEmails: false,
    obscureInputEmails: false,
    canvas: { disableCanvas: false },
    network: {
      capturePayload: true,
      failuresOnly: false,
      ignoreHeaders: ['authorization', 'cookie', 'set-cookie'],
      sessionTokenHeader: false,
      captureInIframes: true,
      sanitizer: sanitizeNetworkCapture,
    },
  })
})

test.each([
  { host: 'https://rec.example', ingestPoint: 'https://rec.example/ingest' },
  { host: 'https://rec.example/', ingestPoint: 'https://rec.example/ingest' },
  { host: 'https://example.com/recorder', ingestPoint: 'https://example.com/recorder/ingest' },
] as const)('ingest point of $host: $ingestPoint', ({ host, ingestPoint }) => {
  expect(getRecorderOptions({ projectKey: 'k', host }).ingestPoint).toBe(ingestPoint)
})
