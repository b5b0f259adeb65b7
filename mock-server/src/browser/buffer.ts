// The part of Node's Buffer the mock server uses, for the demo's browser build
// (docs/decisions/021-serverless-demo.md). The demo's entry installs it as the global `Buffer` before the server's
// modules load; the server build never imports this file.

type Encoding = 'utf8' | 'utf-8' | 'base64' | 'base64url' | 'hex' | 'latin1' | 'binary'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function toBinaryString(bytes: Uint8Array): string {
  let text = ''
  for (let index = 0; index < bytes.length; index += 0x8000)
    text += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return text
}

function fromBinaryString(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length)
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index) & 0xff
  return bytes
}

function encode(bytes: Uint8Array, encoding: Encoding): string {
  switch (encoding) {
    case 'utf8':
    case 'utf-8':
      return decoder.decode(bytes)
    case 'base64':
      return btoa(toBinaryString(bytes))
    case 'base64url':
      return btoa(toBinaryString(bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    case 'hex':
      return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
    case 'latin1':
    case 'binary':
      return toBinaryString(bytes)
    default:
      throw new TypeError(`Unknown encoding: ${String(encoding)}`)
  }
}

/** Node's decoders skip what is not of the alphabet and stop at the first bad pair; so do these. */
function decode(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'utf8':
    case 'utf-8':
      return encoder.encode(text)
    case 'base64':
    case 'base64url': {
      const clean = text
        .replace(/[^A-Za-z0-9+/_-]/g, '')
        .replace(/-/g, '+')
        .replace(/_/g, '/')
      // A lone trailing character carries no whole byte: Node drops it.
      const whole = clean.length % 4 === 1 ? clean.slice(0, -1) : clean
      return fromBinaryString(atob(whole + '='.repeat((4 - (whole.length % 4)) % 4)))
    }
    case 'hex': {
      const pairs = text.match(/^(?:[0-9a-fA-F]{2})*/)?.[0] ?? ''
      return Uint8Array.from(pairs.match(/../g) ?? [], (pair) => parseInt(pair, 16))
    }
    case 'latin1':
    case 'binary':
      return fromBinaryString(text)
    default:
      throw new TypeError(`Unknown encoding: ${String(encoding)}`)
  }
}

/** The bytes every BrowserBuffer function returns. */
export class BrowserBufferBase extends Uint8Array {
  override toString(encoding: Encoding = 'utf8', start = 0, end = this.length): string {
    return encode(this.subarray(start, end), encoding)
  }

  equals(other: Uint8Array): boolean {
    return this.length === other.length && this.every((byte, index) => byte === other[index])
  }
}

function wrap(bytes: Uint8Array): BrowserBufferBase {
  return new BrowserBufferBase(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length)
}

/**
 * @example
 * BrowserBuffer.from('hi?>').toString('base64url') // 'aGk_Pg'
 */
export const BrowserBuffer = {
  from(value: string | ArrayLike<number> | ArrayBufferLike, encoding: Encoding = 'utf8'): BrowserBufferBase {
    if (typeof value === 'string') return wrap(decode(value, encoding))
    if (value instanceof ArrayBuffer) return wrap(new Uint8Array(value.slice(0)))
    return wrap(Uint8Array.from(value as ArrayLike<number>))
  },
  alloc(size: number): BrowserBufferBase {
    return new BrowserBufferBase(size)
  },
  concat(list: readonly Uint8Array[]): BrowserBufferBase {
    const joined = new BrowserBufferBase(list.reduce((total, part) => total + part.length, 0))
    let offset = 0
    for (const part of list) {
      joined.set(part, offset)
      offset += part.length
    }
    return joined
  },
  byteLength(value: string | Uint8Array, encoding: Encoding = 'utf8'): number {
    return typeof value === 'string' ? decode(value, encoding).length : value.length
  },
  isBuffer(value: unknown): value is BrowserBufferBase {
    return value instanceof BrowserBufferBase
  },
}

/** Makes `Buffer` the browser one where there is none (in Node the global stays Node's). */
export function installBuffer(target: { Buffer?: unknown }): void {
  target.Buffer ??= BrowserBuffer
}
