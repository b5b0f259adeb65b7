import { expect, test } from 'vitest'
import { describeDevice, getDevice } from './device.ts'

// Real user-agent strings, as browsers and crawlers send them.
const rows = [
  {
    name: 'iPhone Safari',
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    device: {
      mobile: true,
      tablet: false,
      desktop: false,
      ios: true,
      android: false,
      windows: false,
      macos: false,
      browser: 'safari',
      crawler: false,
    },
  },
  {
    name: 'iPhone Chrome',
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
    device: { mobile: true, ios: true, macos: false, browser: 'chrome', crawler: false },
  },
  {
    name: 'iPhone Firefox',
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
    device: { mobile: true, ios: true, browser: 'firefox' },
  },
  {
    name: 'iPad',
    ua: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1',
    device: { mobile: false, tablet: true, desktop: false, ios: true, macos: false, browser: 'safari' },
  },
  {
    name: 'Android phone Chrome',
    ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    device: { mobile: true, tablet: false, desktop: false, android: true, browser: 'chrome', crawler: false },
  },
  {
    name: 'Android phone Samsung Internet',
    ua: 'Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
    device: { mobile: true, android: true, browser: 'samsung' },
  },
  {
    name: 'Android phone Firefox',
    ua: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
    device: { mobile: true, tablet: false, android: true, browser: 'firefox' },
  },
  {
    name: 'Android tablet',
    ua: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    device: { mobile: false, tablet: true, desktop: false, android: true, browser: 'chrome' },
  },
  {
    name: 'Windows Edge',
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
    device: { desktop: true, windows: true, macos: false, browser: 'edge', crawler: false },
  },
  {
    name: 'Windows Chrome',
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    device: { desktop: true, windows: true, browser: 'chrome', crawler: false },
  },
  {
    name: 'Windows Opera',
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/112.0.0.0',
    device: { desktop: true, windows: true, browser: 'opera' },
  },
  {
    name: 'Windows Internet Explorer 11',
    ua: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
    device: { desktop: true, windows: true, browser: 'ie', crawler: false },
  },
  {
    name: 'macOS Firefox',
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:121.0) Gecko/20100101 Firefox/121.0',
    device: { desktop: true, macos: true, windows: false, browser: 'firefox' },
  },
  {
    name: 'macOS Safari',
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    device: { desktop: true, macos: true, ios: false, browser: 'safari', crawler: false },
  },
  {
    name: 'Linux Firefox',
    ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
    device: { desktop: true, windows: false, macos: false, android: false, browser: 'firefox' },
  },
  {
    name: 'Googlebot',
    ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    device: { crawler: true },
  },
  {
    name: 'Googlebot smartphone: a crawler on a mobile device',
    ua: 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    device: { crawler: true, mobile: true, android: true },
  },
  {
    name: 'Bingbot',
    ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    device: { crawler: true },
  },
  {
    name: 'Facebook link preview',
    ua: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    device: { crawler: true },
  },
  {
    name: 'Slack link preview',
    ua: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    device: { crawler: true },
  },
  {
    name: 'curl',
    ua: 'curl/8.5.0',
    device: { crawler: true },
  },
  {
    name: 'headless Chromium (the e2e suite) is not a crawler',
    ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    device: { desktop: true, crawler: false, browser: 'chrome' },
  },
  {
    name: 'jsdom (the unit tests) is not a crawler',
    ua: 'Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/29.1.1',
    device: { desktop: true, crawler: false },
  },
] as const

test.each(rows)('$name', ({ ua, device }) => {
  expect(getDevice(ua)).toMatchObject(device)
})

const lines = [
  { ua: rows[0].ua, line: 'Safari on iOS, mobile' },
  { ua: rows[7].ua, line: 'Chrome on Android, tablet' },
  { ua: rows[12].ua, line: 'Firefox on macOS, desktop' },
  { ua: rows[14].ua, line: 'Firefox, desktop' },
  { ua: rows[15].ua, line: 'another browser, desktop (crawler)' },
] as const

test.each(lines)('describeDevice: $line', ({ ua, line }) => {
  expect(describeDevice(getDevice(ua))).toBe(line)
})
