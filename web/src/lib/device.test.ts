import { expect, test } from 'vitest'
import { getDevice } from './device.ts'

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
      macos: false,
      browser: 'safari',
      crawler: false,
    },
  },
  {
    name: 'iPad',
    ua: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1',
    device: { mobile: false, tablet: true, desktop: false, ios: true },
  },
  {
    name: 'Android phone Chrome',
    ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    device: { mobile: true, tablet: false, android: true, browser: 'chrome' },
  },
  {
    name: 'Android tablet',
    ua: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    device: { mobile: false, tablet: true, android: true },
  },
  {
    name: 'Windows Edge',
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
    device: { desktop: true, windows: true, browser: 'edge', crawler: false },
  },
  {
    name: 'macOS Firefox',
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:121.0) Gecko/20100101 Firefox/121.0',
    device: { desktop: true, macos: true, browser: 'firefox' },
  },
  {
    name: 'Googlebot',
    ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    device: { crawler: true },
  },
  {
    name: 'Bingbot',
    ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    device: { crawler: true },
  },
  {
    name: 'headless Chromium (the e2e suite) is not a crawler',
    ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    device: { desktop: true, crawler: false, browser: 'chrome' },
  },
] as const

test.each(rows)('$name', ({ ua, device }) => {
  expect(getDevice(ua)).toMatchObject(device)
})
