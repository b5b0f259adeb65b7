// /__mock/docs: both OpenAPI documents in the browser, through Redoc's standalone bundle served from the installed
// `redoc` package (docs/decisions/019-cli-and-docs.md). The page inlines nothing (the security headers every answer
// carries allow scripts of this server only) and nothing on it loads from another host. The bundle is a file on
// disk, so the Node composition root hands in its reader (compose/node-ports.ts); the browser demo has none.
import type { components, operations } from '#api/control.gen.ts'
import type { CompiledDocuments } from '../pipeline/openapi-docs.ts'
import type { OperationTable } from '../pipeline/types.ts'

type DocsOperations = Pick<operations, 'showApiDocs' | 'getDocsDocument' | 'getDocsViewer'>
type DocsDocument = components['schemas']['DocsDocument']
/** What the document's schema promises of it (the rest is the document's own business). */
type OpenApiDocument = operations['getDocsDocument']['responses'][200]['content']['application/json']

const TITLES: Record<DocsDocument, { title: string; file: string }> = {
  api: { title: 'Product API', file: 'api/openapi.yaml' },
  control: { title: 'Control surface', file: 'api/control.openapi.yaml' },
}

function renderPage(document: DocsDocument): string {
  const links = (Object.keys(TITLES) as DocsDocument[])
    .map((name) => {
      const current = name === document ? ' aria-current="page"' : ''
      return `<a href="/__mock/docs?document=${name}"${current}>${TITLES[name].title} <code>${TITLES[name].file}</code></a>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLES[document].title}: API reference of the mock server</title>
<style>
body { margin: 0 }
.docs-nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; padding: 0.75rem 1rem; font: 15px/1.4 system-ui, sans-serif; border-bottom: 1px solid #d0d7de; background: #f6f8fa }
.docs-nav a { color: #0b5cad }
.docs-nav a[aria-current="page"] { color: inherit; font-weight: 700; text-decoration: none }
</style>
</head>
<body>
<nav class="docs-nav" aria-label="API documents">
${links}
</nav>
<redoc spec-url="/__mock/docs/${document}.json"></redoc>
<script src="/__mock/docs/redoc.standalone.js"></script>
</body>
</html>
`
}

/** Reads the viewer's script; without one (the browser demo) the viewer fails as a missing file does. */
export type ViewerReader = () => string

function noViewer(): never {
  throw Object.assign(new Error('No API reference viewer here'), { code: 'MODULE_NOT_FOUND' })
}

/** `documents`: the ones the server routes by, read once for both (a parse of the YAML cost about 2 ms a call). */
export function createDocsOperations(
  documents: CompiledDocuments,
  readViewer: ViewerReader = noViewer,
): OperationTable<DocsOperations> {
  let viewer: string | undefined
  return {
    showApiDocs: ({ query }) => ({ status: 200, body: renderPage(query.document ?? 'api') }),
    getDocsDocument: ({ path }) => ({
      status: 200,
      body: documents.document(path.document) as OpenApiDocument,
    }),
    getDocsViewer() {
      viewer ??= readViewer()
      return {
        status: 200,
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
        body: viewer,
      }
    },
  }
}
