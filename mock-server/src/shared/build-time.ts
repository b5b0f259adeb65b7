// What scripts/build-server.ts works out once at build time for the compiled server (esbuild `define`); undefined
// when the sources run as they are (tsx, vitest), which then do the same work at start, or at first use.

export interface BuildTime {
  /** The two OpenAPI documents, parsed (openapi.yaml, mock-server/control.openapi.yaml). */
  documents: Record<'api' | 'control', Record<string, unknown>>
  /** web/dist relative to the compiled file, ending in `/`. */
  webDist: string
  /** The seeded accounts' argon2id hashes (ARGON2_PARAMS), by their published demo password. */
  seedHashes: Record<string, string>
  /** The argon2id hash (ARGON2_PARAMS) of a random password that was never kept. */
  dummyHash: string
}

declare const __MOCK_SERVER_BUILD__: BuildTime | undefined

export const BUILD_TIME: BuildTime | undefined =
  typeof __MOCK_SERVER_BUILD__ === 'undefined' ? undefined : __MOCK_SERVER_BUILD__
