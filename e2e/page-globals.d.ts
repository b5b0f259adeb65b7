// What the e2e suite's init scripts leave on the page's window for a later page.evaluate to read: the toasts seen
// (fixtures.ts, recordToasts) and the page alerts seen (session-races.spec.ts). Absent until a script sets them.
declare global {
  interface Window {
    __toastsShown?: string[]
    __pageAlerts?: string[]
  }
}

export {}
