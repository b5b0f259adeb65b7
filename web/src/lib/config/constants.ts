// The signed-in area's and the supporting services' constants, named once; each cites the part of
// docs/behaviour.md it comes from. The session's own constants (refresh, reload guard, version check, the first toast
// reading) live in ../../session/constants.ts.

/** Date picker: the week starts on Sunday (docs/behaviour.md: Constants; react-datepicker's `calendarStartDay`, 0 = Sunday). */
export const DATE_PICKER_WEEK_START = 0
/** Date picker: years 1900 to 2100 (docs/behaviour.md: Constants). */
export const DATE_PICKER_FIRST_YEAR = 1900
export const DATE_PICKER_LAST_YEAR = 2100
/** Date picker: the minutes grid steps by 5 (docs/behaviour.md: Constants; react-datepicker's `timeIntervals`). */
export const DATE_PICKER_MINUTE_STEP = 5
/** Date picker: range separator ' - ' (docs/behaviour.md: Constants). */
export const DATE_PICKER_RANGE_SEPARATOR = ' - '
/** Date picker: the mobile layout applies at widths up to 600 px (docs/behaviour.md: Constants "mobile breakpoint 600"). */
export const DATE_PICKER_MOBILE_BREAKPOINT_PX = 600
/** Date picker: the height of its overlays (time list, year list) is 255 px (docs/behaviour.md: Constants "mode height 255"). */
export const DATE_PICKER_OVERLAY_HEIGHT_PX = 255

/** Toasts, second reading (docs/behaviour.md: Constants): top-right, at most 4 shown, the rest queued, 5000 ms each. */
export const QUEUED_TOAST_LIMIT = 4
export const QUEUED_TOAST_DURATION_MS = 5000

/** Error reporting: trace sample rate 1 (docs/behaviour.md: Constants). */
export const SENTRY_TRACES_SAMPLE_RATE = 1
/** Error reporting: breadcrumb cap 100, the library's default, set explicitly (docs/behaviour.md: Constants). */
export const SENTRY_MAX_BREADCRUMBS = 100

/** Session recorder: the name attached when the user has none (docs/behaviour.md: Session). */
export const RECORDER_UNKNOWN_USER_NAME = 'Unknown User'
/** Session recorder: its log lines (docs/behaviour.md: Session, Messages). */
export const RECORDER_LOG_USER_SET = 'User ID set'
export const RECORDER_LOG_USER_CLEARED = 'User ID cleared (user not logged in)'
export const RECORDER_LOG_USER_FAILED = 'Failed to set user ID'
/** Session recorder: the ingest path under the configured host (docs/behaviour.md: Calls "{host}/ingest"). */
export const RECORDER_INGEST_PATH = '/ingest'
