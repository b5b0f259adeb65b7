// Base64url as RFC 7515 section 2 writes it (no padding, `-` and `_`), and the check that a segment is written
// exactly so: decoders forgive padding, `+`, `/` and non-zero trailing bits, so one value has many spellings.

const ALPHABET = /^[A-Za-z0-9_-]*$/

/** True when `segment` is the one base64url spelling of the bytes it decodes to. */
export function isCanonicalBase64url(segment: string): boolean {
  return ALPHABET.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment
}
