import { describe, expect, test } from 'vitest'
import { createMemoryStorage } from '../test/memory-storage.ts'
import type { SessionEffect } from './session-machine.ts'
import { createSessionEffects } from './session-effects.ts'

describe('the session effects', () => {
  test('an effect the machine never makes is refused by name, not run as something else', () => {
    const effects = createSessionEffects(
      {
        fetch: () => Promise.reject(new Error('no call expected')),
        baseUrl: 'http://app.test',
        storage: createMemoryStorage({}),
        clock: { now: () => 0 },
        timers: { setInterval: () => 1, clearInterval: () => undefined },
        navigate: () => undefined,
        notify: () => undefined,
        log: () => undefined,
        hash: async (text) => text,
      },
      () => undefined,
    )
    // @ts-expect-error: no effect is called launchRocket; the runner must refuse one that reaches it anyway
    const unknown: SessionEffect = { type: 'launchRocket' }
    expect(() => effects.run(unknown)).toThrow(
      'Failed to run a session effect: {"type":"launchRocket"} is not one.',
    )
  })
})
