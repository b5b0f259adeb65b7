/**
 * Whether the process `pid` still runs: a signal 0 reaches it, or reaches a process this one may not signal (EPERM),
 * which runs all the same.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
