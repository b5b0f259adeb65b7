// node:zlib in the browser build of the demo (docs/decisions/021-serverless-demo.md). The sinks inflate gzip batches
// synchronously; the browser decompresses only asynchronously, so a gzip batch fails here as a corrupt one does
// (the sink answers it as it answers any unreadable body). The demo's config.json turns the recorder off.

export function gunzipSync(): never {
  throw Object.assign(new Error('gzip bodies are not read in the browser demo'), { code: 'Z_DATA_ERROR' })
}
