// The test hook's place on the page (web/src/app/test-hook.ts): present in mock mode only, so always optional.
import type { AuthShellTestHook } from './app/test-hook.ts'

declare global {
  interface Window {
    __authShell?: AuthShellTestHook
  }
}
