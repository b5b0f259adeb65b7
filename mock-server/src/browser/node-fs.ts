// node:fs in the browser build of the demo (docs/decisions/021-serverless-demo.md): there are no files. Every
// reader fails as a missing file does, which each caller already handles (the build manifest answers 404, the
// documents come from BUILD_TIME); existsSync says no.

function missing(path: unknown): Error {
  return Object.assign(new Error(`ENOENT: no file system in the browser demo, open '${String(path)}'`), {
    code: 'ENOENT',
  })
}

export function readFileSync(path: unknown): never {
  throw missing(path)
}

export function statSync(path: unknown, options?: { throwIfNoEntry?: boolean }): undefined {
  if (options?.throwIfNoEntry === false) return undefined
  throw missing(path)
}

export function lstatSync(path: unknown): never {
  throw missing(path)
}

export function createReadStream(path: unknown): never {
  throw missing(path)
}

export function existsSync(): boolean {
  return false
}

/** Nothing to make a directory in: as a file system that refuses (the mail outbox, --mail-outbox, is the server's). */
export function mkdirSync(path: unknown): never {
  throw Object.assign(new Error(`EROFS: no file system in the browser demo, mkdir '${String(path)}'`), {
    code: 'EROFS',
  })
}
