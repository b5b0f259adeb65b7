// The date-and-time picker's settings from the product constants (docs/behaviour.md: Constants), as react-datepicker props.
// Pure.
import {
  DATE_PICKER_FIRST_YEAR,
  DATE_PICKER_LAST_YEAR,
  DATE_PICKER_MINUTE_STEP,
  DATE_PICKER_MOBILE_BREAKPOINT_PX,
  DATE_PICKER_OVERLAY_HEIGHT_PX,
  DATE_PICKER_RANGE_SEPARATOR,
  DATE_PICKER_WEEK_START,
} from '../../lib/config/constants.ts'

/** The mobile layout applies at widths up to the breakpoint (docs/behaviour.md: Constants). */
export const PICKER_MOBILE_QUERY = `(max-width: ${DATE_PICKER_MOBILE_BREAKPOINT_PX}px)`

/** Read by schedule-picker.css: the height of the time and year overlays (docs/behaviour.md: Constants). */
export const PICKER_OVERLAY_STYLE = { '--picker-overlay-height': `${DATE_PICKER_OVERLAY_HEIGHT_PX}px` }

/** How a scheduled date-time is typed and shown in the field (24-hour, unambiguous in every locale). */
export const PICKER_DATE_FORMAT = 'yyyy-MM-dd HH:mm'

/**
 * @example
 * getPickerConfig({ mobile: true }).withPortal // true: a full-screen overlay instead of a popover
 */
export function getPickerConfig({ mobile }: { mobile: boolean }) {
  return {
    calendarStartDay: DATE_PICKER_WEEK_START,
    minDate: new Date(DATE_PICKER_FIRST_YEAR, 0, 1),
    maxDate: new Date(DATE_PICKER_LAST_YEAR, 11, 31, 23, 59),
    showYearDropdown: true,
    scrollableYearDropdown: true,
    yearDropdownItemNumber: DATE_PICKER_LAST_YEAR - DATE_PICKER_FIRST_YEAR + 1,
    showTimeSelect: true,
    timeIntervals: DATE_PICKER_MINUTE_STEP,
    timeFormat: 'HH:mm',
    dateFormat: PICKER_DATE_FORMAT,
    rangeSeparator: DATE_PICKER_RANGE_SEPARATOR,
    // The mobile layout: the calendar in a full-screen overlay instead of a popover beside the field.
    withPortal: mobile,
  } as const
}
