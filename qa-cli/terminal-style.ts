// Colours for the QA command line. Pure: imports nothing and reads no process state; the environment is passed in.

/** What decides colours: the environment's variables and whether the output is a terminal. */
export interface ColorContext {
  env: Record<string, string | undefined>
  isTTY: boolean
}

/**
 * Colours on a terminal only, decided as Node decides for its own output.
 * FORCE_COLOR wins; NO_COLOR, NODE_DISABLE_COLORS and TERM=dumb turn them off.
 * @example isColorEnabled({ env: { NO_COLOR: '1' }, isTTY: true }) // false
 */
export function isColorEnabled({ env, isTTY }: ColorContext): boolean {
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false'
  if (env.NO_COLOR) return false
  if (env.NODE_DISABLE_COLORS !== undefined) return false
  if (env.TERM === 'dumb') return false
  return isTTY
}

type Paint = (text: string) => string

export interface Style {
  bold: Paint
  dim: Paint
  red: Paint
  green: Paint
  yellow: Paint
  cyan: Paint
  magenta: Paint
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`

const same: Paint = (text) => text

/** Plain text: what goes to a file, a pipe, or a terminal with colours off. */
export const PLAIN: Style = {
  bold: same,
  dim: same,
  red: same,
  green: same,
  yellow: same,
  cyan: same,
  magenta: same,
}

/** ANSI SGR codes, each closed by its own reset so styles nest. */
export const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
  magenta: sgr(35, 39),
}

export function createStyle(context: ColorContext): Style {
  return isColorEnabled(context) ? ANSI : PLAIN
}

/**
 * Server text made safe for a terminal: control characters show as escapes.
 * So a server string cannot move the cursor, colour the screen or fake a line.
 * @example visible('a\u001b[31mred\r\nfake') // 'a\\x1b[31mred\\r\\nfake'
 */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }
    const code = char.charCodeAt(0)
    return (
      named[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
    )
  })
}
