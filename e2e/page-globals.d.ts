// What the e2e suite's init scripts leave on `window` for page.evaluate to read. Absent until a script sets them.
declare global {
  interface Window {
    __toastsShown?: string[]
    __pageAlerts?: string[]
  }
}

export {}
