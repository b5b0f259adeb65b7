// node:fs in the browser build of the demo (docs/decisions/021-serverless-demo.md): there are no files. Only the
// OpenAPI documents' loader (pipeline/openapi-docs.ts) imports it, and in the demo it reads them from BUILD_TIME.
export function readFileSync(path: unknown): never {
  throw Object.assign(new Error(`ENOENT: no file system in the browser demo, open '${String(path)}'`), {
    code: 'ENOENT',
  })
}
