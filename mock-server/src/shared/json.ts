// The one test the mock server uses for "a JSON object" (not null, not an array).
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
