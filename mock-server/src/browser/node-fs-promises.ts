// node:fs/promises in the browser build of the demo (docs/decisions/021-serverless-demo.md): no files. Only the data
// file (persistence.ts, --data-file) reads or writes them, and the demo gives none.

function missing(path: unknown): Promise<never> {
  return Promise.reject(
    Object.assign(new Error(`ENOENT: no file system in the browser demo, open '${String(path)}'`), {
      code: 'ENOENT',
    }),
  )
}

export const readFile = missing
export const writeFile = missing
export const rename = missing
export const mkdir = missing
export const open = missing
export const rm = missing
export const unlink = missing
