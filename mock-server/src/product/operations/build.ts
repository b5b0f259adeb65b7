// The `build` tag: the build manifest the app polls for a new version. The files are written by the
// web build into web/dist/builds/; QA and tests can serve another id as the newest (POST /__mock/build).
import type { components, operations } from '#api/openapi.gen.ts'
import type { ProductContext, ServedBuild } from './context.ts'
import type { OperationTable } from '../../pipeline/types.ts'

type BuildOperations = Pick<operations, 'getLatestBuild' | 'getBuildMeta'>

type BuildInfo = components['schemas']['BuildInfo']

function readBuild({ webRoot, readBuildFile }: ServedBuild, file: string): BuildInfo | null {
  if (!webRoot || !readBuildFile) return null
  try {
    const info = JSON.parse(readBuildFile(webRoot, file)) as Partial<BuildInfo>
    return typeof info.id === 'string' && typeof info.timestamp === 'number'
      ? { id: info.id, timestamp: info.timestamp }
      : null
  } catch {
    return null
  }
}

const notFound = (message: string) => ({
  status: 404 as const,
  body: { error: 'not_found' as const, message },
})
const noStore = { 'cache-control': 'no-store' }

export function createBuildOperations({
  build,
}: Pick<ProductContext, 'build'>): OperationTable<BuildOperations> {
  return {
    getLatestBuild() {
      const latest = build.override ?? readBuild(build, 'latest.json')
      return latest ? { status: 200, body: latest, headers: noStore } : notFound('No build is served.')
    },
    getBuildMeta({ path }) {
      const meta = build.override?.id === path.id ? build.override : readBuild(build, `meta/${path.id}.json`)
      return meta ? { status: 200, body: meta, headers: noStore } : notFound(`There is no build ${path.id}.`)
    },
  }
}
