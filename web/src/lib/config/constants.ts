// The app's constants outside the session, each citing its part of docs/behaviour.md.
// The session's live in ../../session/constants.ts, the retry rule's in ../../api/http-retry.ts.

/** Page-reload guard window for chunk-load errors: 10,000 ms (docs/behaviour.md: Session, Messages, Constants). */
export const RELOAD_GUARD_MS = 10_000

/** New-version check: every 3,600,000 ms (docs/behaviour.md: Session, Constants). */
export const VERSION_CHECK_MS = 3_600_000

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

/** Toasts: top-center, 6000 ms for every kind, promise toasts without time-out (docs/behaviour.md: Constants, first reading). */
export const TOAST_DURATION_MS = 6000
/** Pointer-touch pause debounce of the toasts (docs/behaviour.md: Constants, first reading). */
export const TOAST_TOUCH_PAUSE_MS = 2000

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
