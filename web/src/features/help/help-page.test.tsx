import { act, screen, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { useMockServer } from '../../test/app-harness.tsx'
import { createStubApi, renderPage } from '../../test/page-harness.tsx'
import { renderSignedIn } from '../../test/signed-in.tsx'
import { HelpPage } from './help-page.tsx'

useMockServer()

const openHelp = () => renderSignedIn('/help', { role: 'heading', name: 'Help' })
const titles = () =>
  within(screen.getByRole('list'))
    .getAllByRole('button')
    .map((button) => button.textContent)

describe('the help page', () => {
  test('lists the articles, each closed until opened', async () => {
    const app = await openHelp()
    expect(await screen.findByRole('button', { name: 'Getting started' })).toHaveAttribute(
      'aria-expanded',
      'false',
    )
    expect(titles()).toHaveLength(8)
    expect(screen.getByText(/Work through the steps on the Process page/)).not.toBeVisible()
    await app.user.click(screen.getByRole('button', { name: 'Getting started' }))
    expect(screen.getByRole('button', { name: 'Getting started' })).toHaveAttribute('aria-expanded', 'true')
    const region = screen.getByRole('region', { name: 'Getting started' })
    expect(within(region).getByText(/Work through the steps on the Process page/)).toBeVisible()
    expect(within(region).getByText('Tags: basics, process')).toBeInTheDocument()
    await app.user.click(screen.getByRole('button', { name: 'Getting started' }))
    expect(screen.queryByRole('region', { name: 'Getting started' })).not.toBeInTheDocument()
  })

  test('searches as you type, in titles, bodies and tags', async () => {
    const app = await openHelp()
    const search = await screen.findByRole('searchbox', { name: 'Search help' })
    await app.user.type(search, 'passw')
    expect(titles()).toEqual(['I forgot my password', 'Why was I signed out?', 'Choosing a strong password'])
    expect(screen.getByRole('status')).toHaveTextContent('3 of 8 articles match.')
    await app.user.type(search, 'ord strong')
    expect(titles()).toEqual(['Choosing a strong password'])
    await app.user.clear(search)
    await app.user.type(search, 'calendar') // a tag only
    expect(titles()).toEqual(['Scheduling a step'])
  })

  test('a search that finds nothing says so, and can be cleared', async () => {
    const app = await openHelp()
    await app.user.type(await screen.findByRole('searchbox', { name: 'Search help' }), 'refund policy')
    expect(
      screen.getByText('No articles match “refund policy”. Try other words, or fewer.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('list')).not.toBeInTheDocument()
    await app.user.click(screen.getByRole('button', { name: 'Clear the search' }))
    expect(screen.getByRole('searchbox', { name: 'Search help' })).toHaveValue('')
    expect(titles()).toHaveLength(8)
  })

  test('a failing load: the error, and a way to try again', async () => {
    const app = await renderSignedIn('/', { role: 'heading', name: /^Welcome/ })
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getHelp', status: 503, times: 2 })
    await act(() => app.router.navigate('/help'))
    expect(await screen.findByRole('alert')).toHaveTextContent('The server had a problem. Please try again.')
    await app.user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('button', { name: 'Getting started' })).toBeInTheDocument()
  })
})

describe('the help page alone', () => {
  test('loading', () => {
    renderPage(<HelpPage />, { api: createStubApi({}) })
    expect(screen.getByText('Loading the help articles…')).toHaveAttribute('aria-busy', 'true')
  })

  test('no articles', async () => {
    renderPage(<HelpPage />, { api: createStubApi({ '/api/help': { articles: [] } }) })
    expect(await screen.findByText('There are no help articles yet.')).toBeInTheDocument()
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument()
  })
})
