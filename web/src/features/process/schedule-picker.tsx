// The date-and-time picker of the process page (react-datepicker, MIT), configured by picker-config.ts. It is
// imported only by this page's lazy chunk, so neither it nor its stylesheet is in the initial bundle. The choice is
// committed when the picker closes (a day, then a time), not at each click.
import { useEffect, useState, type ComponentProps, type CSSProperties } from 'react'
import { CalendarContainer, DatePicker } from 'react-datepicker'
import 'react-datepicker/dist/react-datepicker.css'
import { useMediaQuery } from '../../lib/browser/use-media-query.ts'
import { getPickerConfig, PICKER_MOBILE_QUERY, PICKER_OVERLAY_STYLE } from './picker-config.ts'
import './schedule-picker.css'

function PickerContainer(props: ComponentProps<typeof CalendarContainer>) {
  return (
    <div className="schedule-picker" style={PICKER_OVERLAY_STYLE as CSSProperties}>
      <CalendarContainer {...props} />
    </div>
  )
}

export interface SchedulePickerProps {
  id: string
  /** The field's accessible name. */
  label: string
  value: Date | null
  onCommit: (date: Date | null) => void
  disabled?: boolean
}

export function SchedulePicker({ id, label, value, onCommit, disabled }: SchedulePickerProps) {
  const mobile = useMediaQuery(PICKER_MOBILE_QUERY)
  const [draft, setDraft] = useState<Date | null>(value)
  useEffect(() => setDraft(value), [value])
  return (
    <span className="schedule-field">
      <DatePicker
        {...getPickerConfig({ mobile })}
        id={id}
        aria-label={label}
        selected={draft}
        onChange={(date: Date | null) => setDraft(date)}
        onCalendarClose={() => {
          if ((draft?.getTime() ?? null) !== (value?.getTime() ?? null)) onCommit(draft)
        }}
        calendarContainer={PickerContainer}
        placeholderText="Pick a date and time"
        disabled={disabled}
        autoComplete="off"
      />
    </span>
  )
}
