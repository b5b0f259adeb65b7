// The unit-web (jsdom) project's setup: the console.error guard every web test has (setup-console.ts), jest-dom
// matchers, Testing Library cleanup, and what jsdom lacks.
import './setup-console.ts'
import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// The screen tests run the whole mock backend in-process, and npm test runs them niced beside its other legs
// (docs/decisions/025-ci-minutes.md): a first render there took over 5 s. Waiting longer only slows a failing test.
configure({ asyncUtilTimeout: 10_000 })

// vitest's jsdom environment exposes jsdom's Uint8Array as the global one, while Node's TextEncoder, Buffer and
// crypto make Node's: `instanceof Uint8Array` then fails across the two (jose, inside the mock server's MSW host,
// refuses its own key). Use Node's, which is what the code under test meets in a browser-less run anyway.
const NodeUint8Array = Object.getPrototypeOf(new TextEncoder().encode(''))
  .constructor as Uint8ArrayConstructor
if (NodeUint8Array !== globalThis.Uint8Array) globalThis.Uint8Array = NodeUint8Array

// jsdom has no matchMedia; react-hot-toast asks it for prefers-reduced-motion.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList
}

afterEach(() => {
  cleanup()
})
