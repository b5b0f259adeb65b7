// A part the server cannot answer without (its database) is out of reach. Such a call answers 503
// `service_unavailable` with Retry-After (api/openapi.yaml), never a 500 with a stack and never a wrong 401, and the
// next call after the part comes back is answered as usual (docs/mock-server.md, "Where the state lives").

/** The seconds a client is told to wait (Retry-After) while the database is out of reach. */
export const UNAVAILABLE_RETRY_AFTER_S = 5

export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError'
}
