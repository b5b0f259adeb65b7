// What the web page and the server that serves it agree on outside the two OpenAPI documents.

/**
 * The id of the page's JSON block holding the runtime configuration, so the app can skip fetching config.json.
 * Written by mock-server/src/hosts/web-page.ts, read by web/src/lib/config/runtime-config.ts.
 */
export const INLINE_CONFIG_ID = 'runtime-config'
