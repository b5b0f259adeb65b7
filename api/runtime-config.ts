// What the web page and the server that serves it agree on outside the two OpenAPI documents.

/**
 * The id of the JSON data block in which a server that knows the runtime configuration writes it into the page
 * (mock-server/src/hosts/web-page.ts), and which the app reads before it would fetch config.json
 * (web/src/lib/config/runtime-config.ts).
 */
export const INLINE_CONFIG_ID = 'runtime-config'
