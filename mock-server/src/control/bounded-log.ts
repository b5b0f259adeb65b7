// What a sink keeps, oldest first, within a total size (docs/security/hardening.md, "Smaller rules"): each entry
// counts as its JSON text; past the total (or the count) the oldest entries go first.

export interface BoundedLog<T extends object> {
  add(item: T): void
  /** Measures `item` again after it changed; it keeps its age. */
  resize(item: T): void
  items(): T[]
  bytes(): number
  clear(): void
}

export function createBoundedLog<T extends object>(
  limits: { maxBytes: number; maxItems: number },
  onDrop: (item: T) => void = () => {},
): BoundedLog<T> {
  const sizes = new Map<T, number>()
  let total = 0
  const measure = (item: T) => Buffer.byteLength(JSON.stringify(item))
  const trim = () => {
    for (const [item, size] of sizes) {
      if (total <= limits.maxBytes && sizes.size <= limits.maxItems) return
      sizes.delete(item)
      total -= size
      onDrop(item)
    }
  }
  return {
    add(item) {
      const size = measure(item)
      sizes.set(item, size)
      total += size
      trim()
    },
    resize(item) {
      const before = sizes.get(item)
      if (before === undefined) return
      const size = measure(item)
      sizes.set(item, size)
      total += size - before
      trim()
    },
    items: () => [...sizes.keys()],
    bytes: () => total,
    clear() {
      sizes.clear()
      total = 0
    },
  }
}
