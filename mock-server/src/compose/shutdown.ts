// What a stopping server closes once no request is in flight (main.ts): the composition root's own pieces, then the
// hooks handed in through `onShutdown` (compose/options.ts), in order. One that fails is reported by name and the
// rest still run: a mail transport that will not close must not keep the data file from being written.

/** Something to close when the server stops: a database pool, a mail transport's queue. */
export interface ShutdownHook {
  /** Named in the one line a failure prints (`Failed to close the <name> while stopping.`); never its error. */
  name: string
  close(): Promise<void>
}

/**
 * Runs every hook in order, each after the one before has settled.
 * @example await runShutdownHooks([{ name: 'mail transport', close: () => transport.close() }], console.error)
 */
export async function runShutdownHooks(
  hooks: readonly ShutdownHook[],
  report: (line: string) => void,
): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook.close()
    } catch {
      // The error may carry a connection string or a server's greeting: the name says enough to look.
      report(`Failed to close the ${hook.name} while stopping.`)
    }
  }
}
