// The device descriptor of docs/behaviour.md: Stored state, from the user agent. Pure: imports only `isbot`.
// Platform and browser use our own small patterns, since ua-parser-js 2.x is AGPL.
import { createIsbotFromList, list } from 'isbot'

export type BrowserFamily = 'edge' | 'opera' | 'samsung' | 'chrome' | 'firefox' | 'safari' | 'ie' | 'other'

export interface Device {
  mobile: boolean
  tablet: boolean
  desktop: boolean
  ios: boolean
  android: boolean
  windows: boolean
  macos: boolean
  browser: BrowserFamily
  crawler: boolean
}

// Headless browsers are not crawlers: the e2e suite runs one and must see the real pages (ADR 006).
const isCrawler = createIsbotFromList(list.filter((pattern) => pattern !== 'headless'))

function browserOf(ua: string): BrowserFamily {
  if (/Edg(e|A|iOS)?\//.test(ua)) return 'edge'
  if (/OPR\/|Opera/.test(ua)) return 'opera'
  if (/SamsungBrowser\//.test(ua)) return 'samsung'
  if (/Chrome\/|CriOS\//.test(ua)) return 'chrome'
  if (/Firefox\/|FxiOS\//.test(ua)) return 'firefox'
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return 'safari'
  if (/MSIE |Trident\//.test(ua)) return 'ie'
  return 'other'
}

/**
 * @example
 * getDevice('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)').crawler // true
 */
export function getDevice(ua: string): Device {
  const ios = /iPhone|iPad|iPod/.test(ua)
  const android = /Android/.test(ua)
  const tablet = /iPad|Tablet/.test(ua) || (android && !/Mobile/.test(ua))
  const mobile = !tablet && (/Mobi|iPhone|iPod/.test(ua) || android)
  return {
    mobile,
    tablet,
    desktop: !mobile && !tablet,
    ios,
    android,
    windows: /Windows/.test(ua),
    macos: /Macintosh|Mac OS X/.test(ua) && !ios,
    browser: browserOf(ua),
    crawler: isCrawler(ua),
  }
}

const BROWSER_NAMES: Record<BrowserFamily, string> = {
  edge: 'Edge',
  opera: 'Opera',
  samsung: 'Samsung Internet',
  chrome: 'Chrome',
  firefox: 'Firefox',
  safari: 'Safari',
  ie: 'Internet Explorer',
  other: 'another browser',
}

/**
 * One line for people: "Chrome on Android, mobile".
 * @example
 * describeDevice(getDevice(navigator.userAgent)) // 'Firefox on macOS, desktop'
 */
export function describeDevice(device: Device): string {
  const platform = device.ios
    ? 'iOS'
    : device.android
      ? 'Android'
      : device.windows
        ? 'Windows'
        : device.macos
          ? 'macOS'
          : null
  const form = device.mobile ? 'mobile' : device.tablet ? 'tablet' : 'desktop'
  const browser = BROWSER_NAMES[device.browser]
  const line = `${browser}${platform ? ` on ${platform}` : ''}, ${form}`
  return device.crawler ? `${line} (crawler)` : line
}
