// The device descriptor of spec 3, derived from the user agent. Pure.

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

// Search engines and link unfurlers; not headless browsers (the e2e suite runs one and must see the real pages).
const CRAWLER =
  /bot\b|bot\/|crawler|spider|crawling|slurp|bingpreview|mediapartners|facebookexternalhit|embedly|quora link preview|whatsapp/i

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
    crawler: CRAWLER.test(ua),
  }
}
