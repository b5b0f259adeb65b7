import { expect, test } from 'vitest'
import { getPickerConfig, PICKER_MOBILE_QUERY, PICKER_OVERLAY_STYLE } from './picker-config.ts'

test("the picker's constants (docs/behaviour.md: Constants)", () => {
  const config = getPickerConfig({ mobile: false })
  expect(config.calendarStartDay).toBe(0) // Sunday
  expect(config.minDate).toEqual(new Date(1900, 0, 1))
  expect(config.maxDate).toEqual(new Date(2100, 11, 31, 23, 59))
  expect(config.yearDropdownItemNumber).toBe(201) // 1900 to 2100
  expect(config.timeIntervals).toBe(5)
  expect(config.rangeSeparator).toBe(' - ')
  expect(PICKER_MOBILE_QUERY).toBe('(max-width: 600px)')
  expect(PICKER_OVERLAY_STYLE).toEqual({ '--picker-overlay-height': '255px' })
})

test.each([
  { mobile: false, withPortal: false },
  { mobile: true, withPortal: true },
] as const)('mobile $mobile: a full-screen overlay $withPortal', ({ mobile, withPortal }) => {
  expect(getPickerConfig({ mobile })).toMatchObject({ withPortal, showTimeSelect: true })
})
