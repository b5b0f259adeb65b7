// The schema checks of the pipeline (pipeline/dispatch.ts): the query and path parameters, then the decoded body, each
// against the operation's schemas in its OpenAPI document; a refusal is a 400 `validation_failed` naming the fields.
import { describeErrors, type Route } from './openapi-docs.ts'
import { errorResponse, type RawResponse } from './raw.ts'

export interface Parameters {
  query: Record<string, unknown>
  path: Record<string, unknown>
}

export function validateParameters(route: Route, url: URL): Parameters | { response: RawResponse } {
  const query = Object.fromEntries(url.searchParams.entries())
  if (route.strictQuery) {
    const names = [...url.searchParams.keys()]
    const twice = names.filter((name, at) => names.indexOf(name) !== at)
    if (twice.length > 0)
      return invalid(Object.fromEntries(twice.map((name) => [name, 'Give this parameter once.'])))
  }
  if (!route.validateQuery(query)) return invalid(describeErrors(route.validateQuery.errors))
  const match = route.pattern.exec(url.pathname)
  const path = Object.fromEntries(
    route.pathNames.map((name, index) => [name, safeDecode(match?.[index + 1] ?? '')]),
  )
  if (!route.validatePath(path)) return invalid(describeErrors(route.validatePath.errors))
  return { query, path }
}

/** The refusal of a decoded body its schema does not take; null when it fits (or the operation takes none). */
export function validateBody(route: Route, body: unknown): { response: RawResponse } | null {
  if (!route.validateBody || route.validateBody(body)) return null
  return invalid(describeErrors(route.validateBody.errors))
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function invalid(fields: Record<string, string>): { response: RawResponse } {
  const count = Object.keys(fields).length
  const message = count === 1 ? `${Object.entries(fields)[0]!.join(': ')}` : `${count} fields need attention.`
  return { response: errorResponse(400, 'validation_failed', message, { fields }) }
}
