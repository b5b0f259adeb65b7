// node:module in the browser build of the demo (docs/decisions/021-serverless-demo.md): no package is on disk to
// resolve. Only the API reference page (/__mock/docs, operations/docs.ts) resolves one, at its first request; in
// the demo that page's viewer answers as a missing file does (the reference is the mock server's, not the demo's).

export function createRequire(): { resolve(id: string): never } {
  return {
    resolve(id) {
      throw Object.assign(new Error(`Cannot find module '${id}' in the browser demo`), {
        code: 'MODULE_NOT_FOUND',
      })
    },
  }
}
