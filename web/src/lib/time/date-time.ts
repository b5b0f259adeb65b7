// Dates for people: the browser's locale and time zone, medium date and short time. Pure.

const FORMAT: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }

/**
 * @example
 * formatDateTime('2030-05-01T09:30:00.000Z', 'en-GB', 'UTC') // '1 May 2030, 09:30'
 */
export function formatDateTime(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(locale, { ...FORMAT, ...(timeZone && { timeZone }) }).format(date)
}
