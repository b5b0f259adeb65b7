// @node-rs/argon2 for the demo's browser build (docs/decisions/021-serverless-demo.md): argon2id in WebAssembly
// (hash-wasm) with the same parameters and PHC string, so a hash made by either verifies with the other
// (argon2.test.ts).
import { argon2id, argon2Verify } from 'hash-wasm'

export interface Options {
  algorithm?: number
  memoryCost?: number
  timeCost?: number
  parallelism?: number
  outputLen?: number
}

/** @node-rs/argon2's defaults, which the server's ARGON2_PARAMS override. */
const DEFAULTS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 }

export async function hash(password: string, options: Options = {}): Promise<string> {
  if (options.algorithm !== undefined && options.algorithm !== 2)
    throw new Error('Only argon2id (algorithm 2) is built into the demo.')
  return argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    memorySize: options.memoryCost ?? DEFAULTS.memoryCost,
    iterations: options.timeCost ?? DEFAULTS.timeCost,
    parallelism: options.parallelism ?? DEFAULTS.parallelism,
    hashLength: options.outputLen ?? DEFAULTS.outputLen,
    outputType: 'encoded',
  })
}

/** Rejects on a string that is no argon2 hash, as the package does (passwords.ts takes that for a mismatch). */
export async function verify(hashed: string, password: string): Promise<boolean> {
  return argon2Verify({ password, hash: hashed })
}
