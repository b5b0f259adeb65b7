// The full-load rule of lib/navigation/version-check.ts on the app's own router.
// After a new version is found, the next navigation loads its destination in full.
import { describe, expect, test } from 'vitest'
import { installFullLoadOnNavigation } from '../lib/navigation/version-check.ts'
import { createMemoryAppRouter } from './app-router.ts'

describe('the next navigation after a new version is a full page load', () => {
  function setUpRouter() {
    const router = createMemoryAppRouter('/')
    let outdated = false
    const assigned: string[] = []
    const stop = installFullLoadOnNavigation({
      router,
      isOutdated: () => outdated,
      assign: (href) => assigned.push(href),
    })
    return { router, assigned, stop, outdate: () => (outdated = true) }
  }

  test('up to date: navigations stay in the app', async () => {
    const { router, assigned } = setUpRouter()
    await router.navigate('/help')
    await router.navigate('/')
    expect(assigned).toEqual([])
  })

  test('outdated: the next navigation loads its destination in full, once', async () => {
    const { router, assigned, outdate } = setUpRouter()
    await router.navigate('/help')
    outdate()
    await router.navigate('/?tab=next#top')
    await router.navigate('/help')
    expect(assigned).toEqual(['/?tab=next#top'])
  })

  test('outdated: a replace and a step back count as navigations too', async () => {
    const { router, assigned, outdate } = setUpRouter()
    await router.navigate('/help')
    outdate()
    await router.navigate(-1)
    expect(assigned).toEqual(['/'])
    const second = setUpRouter()
    second.outdate()
    await second.router.navigate('/process', { replace: true })
    expect(second.assigned).toEqual(['/process'])
  })

  test('outdated: the navigation leaves as it starts, in the same task (before React renders the new screen)', () => {
    const { router, assigned, outdate } = setUpRouter()
    outdate()
    void router.navigate('/slow')
    expect(assigned).toEqual(['/slow'])
  })

  test('stopped: navigations stay in the app', async () => {
    const { router, assigned, outdate, stop } = setUpRouter()
    outdate()
    stop()
    await router.navigate('/help')
    expect(assigned).toEqual([])
  })
})
