// Faults in the app's lazy chunks, made with page.route: a chunk that cannot load, and one that throws at render.
import type { Page, Route } from '@playwright/test'

/** The URL pattern of the lazy chunk built from web/src/features/<feature>/<name>.tsx. */
export function chunkUrl(name: string): string {
  return `**/assets/${name}-*.js`
}

/** Every request for the chunk fails at the network level, as when a deploy removed it. */
export async function abortChunk(page: Page, name: string): Promise<void> {
  await page.route(chunkUrl(name), (route) => route.abort('failed'))
}

/** Holds every request for the chunk until the test answers it; the held requests, in the order they came. */
export async function holdChunk(page: Page, name: string): Promise<Route[]> {
  const held: Route[] = []
  await page.route(chunkUrl(name), (route) => void held.push(route))
  return held
}

/**
 * Fails `held`, waits until any reload it caused has begun, then lets later requests through.
 */
export async function failHeldChunk(page: Page, name: string, held: Route): Promise<void> {
  const failed = page.waitForEvent('requestfailed', (request) => request.url().includes(`/${name}-`))
  await held.abort('failed')
  await failed
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)))
  await page.unroute(chunkUrl(name))
}

export const RENDER_ERROR = 'e2e: a component threw while rendering'

/**
 * The chunk loads, but its components throw at render.
 * Throwing at evaluation would read as a chunk-load error instead.
 */
export async function breakChunkRender(page: Page, name: string): Promise<void> {
  await page.route(chunkUrl(name), async (route) => {
    const original = await (await route.fetch()).text()
    const names = [...original.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map(
        (part) =>
          part
            .trim()
            .split(/\s+as\s+/)
            .at(-1) ?? '',
      ),
    )
    if (names.length === 0 || names.includes(''))
      throw new Error(`Failed to break ${name}: no export list found in the chunk.`)
    const body = [
      `const broken = () => { throw new Error(${JSON.stringify(RENDER_ERROR)}) }`,
      `export { ${names.map((exported) => `broken as ${exported}`).join(', ')} }`,
    ].join('\n')
    await route.fulfill({ contentType: 'text/javascript', body })
  })
}

/** Counts the page's top-level document loads (its first load, reloads, full navigations). */
export function countDocumentLoads(page: Page): { readonly count: number } {
  const counter = { count: 0 }
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) counter.count += 1
  })
  return counter
}

/**
 * Whether this browser fetches a module again after its dynamic import failed.
 * Some Chromium builds cache the failure (whatwg/html#6768), so only the one reload fetches it again.
 */
export async function retriesFailedImports(page: Page): Promise<boolean> {
  const probe = '**/e2e-import-probe.js'
  let asked = 0
  await page.route(probe, (route) =>
    ++asked === 1
      ? route.abort('failed')
      : route.fulfill({ contentType: 'text/javascript', body: 'export const probed = true' }),
  )
  const retried = await page.evaluate(async () => {
    const url = '/e2e-import-probe.js'
    await import(url).catch(() => undefined)
    return import(url).then(
      () => true,
      () => false,
    )
  })
  await page.unroute(probe)
  return retried
}
