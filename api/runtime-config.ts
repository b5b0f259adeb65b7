// What the web page and the server that serves it agree on outside the two OpenAPI documents.

/**
 * The id of the page's JSON block holding the runtime configuration, so the app can skip fetching config.json.
 * Written by mock-server/src/hosts/web-page.ts, read by web/src/lib/config/runtime-config.ts.
 */
export const INLINE_CONFIG_ID = 'runtime-config'

/**
 * config.json's `tokenLifetimes`, which the mock server writes itself (docs/web-app.md, Runtime configuration): how
 * long the tokens it issues live, in whole seconds. `accessSeconds` is an access token's `exp - iat`;
 * `refreshSeconds` a refresh family's absolute lifetime, the session cookie's `Max-Age` at sign-in. The app may
 * ignore it; a suite or an operator reads what the server runs with.
 */
export interface TokenLifetimes {
  accessSeconds: number
  refreshSeconds: number
}

/** The fields of config.json the mock server sets itself, over whatever the file beside the app says. */
export interface ServerConfigFields {
  mock: boolean
  externalSignIn: boolean
  /** Left out by a replay (--replay), which issues no tokens of its own. */
  tokenLifetimes?: TokenLifetimes
}
