// The one function of mime-types (a dependency of serve-static, whose types name none) that hosts/precompressed.ts
// uses: the Content-Type for a file extension, as the static sender states it, or false for none known.
declare module 'mime-types' {
  export function contentType(typeOrExtension: string): string | false
}
