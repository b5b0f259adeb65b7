// The console warnings of the supporting services when one cannot start, its chunk included (schedule-services.ts,
// supporting-services.ts).
export const FAILED_TO_LOAD_SERVICES = 'Failed to load error reporting and the session recorder:'
export const FAILED_TO_START_REPORTING = 'Failed to start error reporting:'
export const FAILED_TO_START_RECORDER = 'Failed to start the session recorder:'
