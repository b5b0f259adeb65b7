// A @msw/data collection that finds a record by one field without scanning every record
// (docs/decisions/013-mock-server-speed.md): a refresh looked its token up among every retired token.
// It answers exactly what `findFirst((q) => q.where({ [field]: value }))` answers. While a write is unsettled,
// or when several records hold the value, it scans as findFirst does, since the index may lag the array.
import { Collection, type CollectionOptions } from '@msw/data'
import type { z } from 'zod'

type RecordOf<Schema extends z.ZodType> = ReturnType<Collection<Schema>['all']>[number]
type Predicate<Schema extends z.ZodType> = Parameters<Collection<Schema>['findMany']>[0]

/** The symbol the library keys a record by (it does not export it); undefined on anything but a record. */
const primaryKeySymbolOf = (record: object): symbol | undefined =>
  Object.getOwnPropertySymbols(record).find((symbol) => symbol.description === 'kPrimaryKey')

/** The library's own key of a record: what its update and delete go by. */
function primaryKeyOf(record: object): unknown {
  const key = primaryKeySymbolOf(record)
  if (key === undefined) throw new Error('Failed to index a record: it carries no primary key.')
  return (record as Record<symbol, unknown>)[key]
}

function valueOf(record: object, field: string): unknown {
  return (record as Record<string, unknown>)[field]
}

export class IndexedCollection<
  Schema extends z.ZodType,
  Field extends keyof z.output<Schema> & string,
> extends Collection<Schema> {
  readonly #fields: readonly Field[]
  readonly #byField = new Map<Field, Map<unknown, RecordOf<Schema>[]>>()
  /** Each indexed record by the library's primary key: an update's new version replaces the one indexed. */
  readonly #byKey = new Map<unknown, RecordOf<Schema>>()
  /** Writes begun and not yet settled: while any is, lookups scan. */
  #pending = 0
  /**
   * The record an update by record is about to find: the library finds it with a scan from the oldest record,
   * which for a refresh's parent token meant every retired token before it. Set and taken within one call.
   */
  #located: { record: RecordOf<Schema> | undefined } | null = null

  constructor(options: CollectionOptions<Schema> & { indexes: readonly Field[] }) {
    const { indexes, ...rest } = options
    super(rest)
    this.#fields = indexes
    for (const field of indexes) this.#byField.set(field, new Map())
  }

  /** The first record whose `field` is `value`, as `findFirst((q) => q.where({ [field]: value }))` finds it. */
  findBy(field: Field, value: string): RecordOf<Schema> | undefined {
    const holders = this.#pending === 0 ? this.#byField.get(field)?.get(value) : undefined
    if (this.#pending === 0 && holders === undefined) return undefined
    if (holders?.length === 1) return holders[0]
    return this.findFirst((q) => q.where((record) => valueOf(record, field) === value))
  }

  override async create(initialValues: z.input<Schema>): Promise<RecordOf<Schema>> {
    return this.#writing(async () => {
      const record = await super.create(initialValues)
      this.#add(record)
      return record
    })
  }

  override findFirst<Strict extends boolean>(
    predicate?: Parameters<Collection<Schema>['findFirst']>[0],
    options?: { strict?: Strict },
  ): Strict extends true ? RecordOf<Schema> : RecordOf<Schema> | undefined {
    const located = this.#located
    this.#located = null
    // Only the library's own update asks while `#located` is set, and never strictly.
    if (located)
      return located.record as Strict extends true ? RecordOf<Schema> : RecordOf<Schema> | undefined
    return super.findFirst<Strict>(predicate, options)
  }

  override async update<Strict extends boolean>(
    predicate: Parameters<Collection<Schema>['update']>[0],
    options: Parameters<Collection<Schema>['update']>[1] & { strict?: Strict },
  ): Promise<Strict extends true ? RecordOf<Schema> : RecordOf<Schema> | undefined> {
    // The library's update calls findFirst before its first await, so what is set here is taken there.
    if (this.#pending === 0 && typeof predicate === 'object' && primaryKeySymbolOf(predicate) !== undefined)
      this.#located = { record: this.#byKey.get(primaryKeyOf(predicate)) }
    const written = this.#writing(async () => {
      const record = await super.update<Strict>(predicate, options)
      if (record) this.#replace(record)
      return record
    })
    this.#located = null
    return written
  }

  override async updateMany(
    predicate: Parameters<Collection<Schema>['updateMany']>[0],
    options: Parameters<Collection<Schema>['updateMany']>[1],
  ): Promise<RecordOf<Schema>[]> {
    return this.#writing(async () => {
      const records = await super.updateMany(predicate, options)
      for (const record of records) this.#replace(record)
      return records
    })
  }

  override delete<Strict extends boolean>(
    predicate: Parameters<Collection<Schema>['delete']>[0],
    options?: { strict?: Strict },
  ): Strict extends true ? RecordOf<Schema> : RecordOf<Schema> | undefined {
    const record = super.delete<Strict>(predicate, options)
    if (record) this.#remove(primaryKeyOf(record))
    return record
  }

  override deleteMany(
    predicate: Predicate<Schema>,
    options?: Parameters<Collection<Schema>['deleteMany']>[1],
  ): RecordOf<Schema>[] {
    const records = super.deleteMany(predicate!, options)
    for (const record of records) this.#remove(primaryKeyOf(record))
    return records
  }

  override clear(): void {
    super.clear()
    this.#byKey.clear()
    for (const index of this.#byField.values()) index.clear()
  }

  async #writing<T>(write: () => Promise<T>): Promise<T> {
    this.#pending += 1
    try {
      return await write()
    } finally {
      this.#pending -= 1
    }
  }

  #add(record: RecordOf<Schema>): void {
    this.#byKey.set(primaryKeyOf(record), record)
    for (const field of this.#fields) {
      const index = this.#byField.get(field)!
      const value = valueOf(record, field)
      const holders = index.get(value)
      if (holders) holders.push(record)
      else index.set(value, [record])
    }
  }

  #replace(record: RecordOf<Schema>): void {
    this.#remove(primaryKeyOf(record))
    this.#add(record)
  }

  #remove(key: unknown): void {
    const indexed = this.#byKey.get(key)
    if (!indexed) return
    this.#byKey.delete(key)
    for (const field of this.#fields) {
      const index = this.#byField.get(field)!
      const value = valueOf(indexed, field)
      const holders = index.get(value)?.filter((holder) => holder !== indexed)
      if (holders?.length) index.set(value, holders)
      else index.delete(value)
    }
  }
}
