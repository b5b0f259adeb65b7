// After the run: remove this run's build of the app (playwright.config.ts builds it per run, by port).
import { rmSync } from 'node:fs'

export default function globalTeardown(): void {
  const dir = process.env.E2E_WEB_DIR
  if (dir) rmSync(dir, { recursive: true, force: true })
}
