// The external sign-ins the product waits on (pending-sign-ins.ts): bound to a state and a browser, good once, for a
// while.
import { beforeEach, describe, expect, test } from 'vitest'
import { EXTERNAL_SIGN_IN_TTL_MS } from '../shared/constants.ts'
import { createMockCore, type MockCore } from '../core.ts'
import { createPendingSignIns } from './pending-sign-ins.ts'

const STATE = 'state-0123456789abcdef'
const PENDING = {
  issuer: 'https://id.example',
  redirectUri: 'https://app.example/callback',
  nonce: 'n',
  codeVerifier: 'v',
}

let core: MockCore
beforeEach(async () => {
  core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 }, seed: false })
  await core.ready
})

describe('the sign-ins the product waits on', () => {
  test('found by state, only with the browser’s binding, once', async () => {
    const signIns = createPendingSignIns(core.clock)
    await signIns.add(STATE, 'browser-a', PENDING)
    expect(await signIns.take(STATE, 'browser-b')).toBeNull()
    expect(await signIns.take(STATE, undefined)).toBeNull()
    expect(await signIns.take(`${STATE}x`, 'browser-a')).toBeNull()
    expect(await signIns.take(STATE, 'browser-a')).toEqual(PENDING)
    expect(await signIns.take(STATE, 'browser-a')).toBeNull()
  })

  test('gone once EXTERNAL_SIGN_IN_TTL_MS has passed', async () => {
    const signIns = createPendingSignIns(core.clock)
    await signIns.add(STATE, 'browser-a', PENDING)
    core.clock.advance(EXTERNAL_SIGN_IN_TTL_MS)
    expect(await signIns.take(STATE, 'browser-a')).toBeNull()
  })
})
