// The one line a 500 leaves in the log (docs/security/hardening.md): where it happened and what was thrown, on one
// line, with no data of the request. A thrown message can quote what it failed on (Node's JSON.parse quotes the
// text: a body, a password), so every quoted part of it is blanked, and it is cut short.

const MAX_MESSAGE = 160

/**
 * @example
 * describeFault('POST /api/auth/login 500 in login', new SyntaxError('Unexpected token \'p\', "password=x" is not valid JSON'))
 * // 'POST /api/auth/login 500 in login: SyntaxError: Unexpected token \'…\', "…" is not valid JSON (at dispatch.ts:70:12)'
 */
export function describeFault(where: string, error: unknown): string {
  if (!(error instanceof Error)) return `${where}: a thrown ${typeof error}`
  const message = (error.message.split('\n')[0] ?? '').replace(/(["'`]).*?\1/g, '$1…$1').slice(0, MAX_MESSAGE)
  const frame = /\(?([^()\s]+:\d+:\d+)\)?\s*$/m.exec(error.stack?.split('\n')[1] ?? '')?.[1]
  const place = frame ? ` (at ${frame.split(/[\\/]/).pop()})` : ''
  return `${where}: ${error.name}: ${message}${place}`
}
