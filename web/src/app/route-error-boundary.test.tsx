import { act, render, screen } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { Route, Routes, unstable_HistoryRouter as HistoryRouter } from 'react-router-dom'
import { expectConsoleError } from '../test/console-errors.ts'
import { createMemoryAppRouter } from './app-router.ts'
import { createChunkLoads, type ChunkLoads } from '../lib/navigation/chunk-loads.ts'
import { lazyScreen } from '../lib/navigation/lazy-screen.tsx'
import { ServicesProvider, type Services } from '../lib/services/services.ts'
import { RouteErrorBoundary } from './route-error-boundary.tsx'

function Broken(): never {
  throw new Error('Boom')
}

describe('RouteErrorBoundary', () => {
  test('a screen that throws shows the fallback; the next navigation clears it', async () => {
    expectConsoleError(/Boom|The above error occurred/)
    const router = createMemoryAppRouter('/broken')
    render(
      <HistoryRouter history={router.history}>
        <RouteErrorBoundary fallback={(error) => <p>caught: {(error as Error).message}</p>}>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/fine" element={<p>fine</p>} />
          </Routes>
        </RouteErrorBoundary>
      </HistoryRouter>,
    )
    expect(await screen.findByText('caught: Boom')).toBeInTheDocument()
    await act(() => router.navigate('/fine'))
    expect(await screen.findByText('fine')).toBeInTheDocument()
    expect(screen.queryByText('caught: Boom')).not.toBeInTheDocument()
  })
})

/** The page's chunk loads as a test makes them, and `render` with them provided (lazyScreen reads them there). */
function usePage(reloadForFailedChunk?: () => boolean) {
  const chunks: ChunkLoads = createChunkLoads({ reloadForFailedChunk })
  const withChunks = ({ children }: { children?: React.ReactNode }) => (
    <ServicesProvider services={{ chunks } as Services}>{children}</ServicesProvider>
  )
  return {
    chunks,
    render: (element: React.JSX.Element) => render(element, { wrapper: withChunks }),
    /** `element` inside a route error boundary that shows what it caught, under a router. */
    renderInBoundary: (element: React.JSX.Element) =>
      render(
        <RouteErrorBoundary fallback={(error) => <p>caught: {(error as Error).message}</p>}>
          {element}
        </RouteErrorBoundary>,
        {
          wrapper: ({ children }) => (
            <HistoryRouter history={createMemoryAppRouter('/').history}>
              {withChunks({ children })}
            </HistoryRouter>
          ),
        },
      ),
  }
}

describe('lazyScreen', () => {
  test('counts as loading until its chunk is in, then renders it', async () => {
    const { chunks, render } = usePage()
    let resolve: (screen: () => React.JSX.Element) => void = () => {}
    const Screen = lazyScreen(
      () => new Promise<() => React.JSX.Element>((done) => (resolve = done)),
      (module) => module,
    )
    render(<Screen />)
    expect(chunks.getSnapshot()).toBeGreaterThan(0)
    await act(async () => resolve(() => <p>loaded</p>))
    expect(await screen.findByText('loaded')).toBeInTheDocument()
    expect(chunks.getSnapshot()).toBe(0)
  })

  test('a chunk that fails to load throws to the error boundary, and the next render tries again', async () => {
    const { chunks, render, renderInBoundary } = usePage()
    expectConsoleError(/chunk gone|The above error occurred/)
    let attempts = 0
    const Screen = lazyScreen(
      async () => {
        attempts += 1
        if (attempts === 1) throw new Error('chunk gone')
        return { Screen: () => <p>second try</p> }
      },
      (module) => module.Screen,
    )
    const first = renderInBoundary(<Screen />)
    expect(await screen.findByText('caught: chunk gone')).toBeInTheDocument()
    first.unmount()
    render(<Screen />)
    expect(await screen.findByText('second try')).toBeInTheDocument()
    expect(chunks.getSnapshot()).toBe(0)
  })

  test('a screen left before its chunk is in stops counting as awaited; its late failure shows nothing, and the next visit asks again', async () => {
    const { chunks, render, renderInBoundary } = usePage()
    let fail: (error: Error) => void = () => {}
    let attempts = 0
    const Screen = lazyScreen(
      () => {
        attempts += 1
        return attempts === 1
          ? new Promise<{ Screen: () => React.JSX.Element }>((_, reject) => (fail = reject))
          : Promise.resolve({ Screen: () => <p>second visit</p> })
      },
      (module) => module.Screen,
    )
    const first = renderInBoundary(<Screen />)
    expect(chunks.getSnapshot()).toBe(1)
    // The user goes elsewhere: the chunk-load rule must not reload the page under the next screen for this one.
    first.unmount()
    expect(chunks.getSnapshot()).toBe(0)
    await act(async () => fail(new Error('chunk gone')))
    expect(screen.queryByText(/caught/)).not.toBeInTheDocument()
    render(<Screen />)
    expect(await screen.findByText('second visit')).toBeInTheDocument()
    expect(attempts).toBe(2)
    expect(chunks.getSnapshot()).toBe(0)
  })

  test('a failed chunk still waited for asks the chunk-load rule; when it reloads, the screen stays loading, with no error', async () => {
    const asked: string[] = []
    const { chunks, renderInBoundary } = usePage(() => (asked.push('reload'), true))
    const Screen = lazyScreen(
      () => Promise.reject(new Error('chunk gone')),
      (module: { Screen: () => null }) => module.Screen,
    )
    const view = renderInBoundary(<Screen />)
    await vi.waitFor(() => expect(asked).toEqual(['reload']))
    expect(screen.queryByText(/caught/)).not.toBeInTheDocument()
    expect(chunks.getSnapshot(), 'the loading bar stays until the page goes').toBe(1)
    view.unmount()
    expect(chunks.getSnapshot()).toBe(0)
  })

  test('several waiting for the same failed chunk (the picker of each step): the rule is asked once, and none shows an error', async () => {
    const asked: string[] = []
    const { renderInBoundary } = usePage(() => (asked.push('reload'), asked.length === 1))
    let fail: (error: Error) => void = () => {}
    const Part = lazyScreen(
      () => new Promise<{ Part: () => null }>((_, reject) => (fail = reject)),
      (module) => module.Part,
      { placeholder: <p>loading part</p> },
    )
    renderInBoundary(
      <>
        <Part />
        <Part />
        <Part />
      </>,
    )
    expect(screen.getAllByText('loading part')).toHaveLength(3)
    await act(async () => fail(new Error('chunk gone')))
    expect(asked).toEqual(['reload'])
    expect(screen.queryByText(/caught/)).not.toBeInTheDocument()
    expect(screen.getAllByText('loading part')).toHaveLength(3)
  })

  test('a failed chunk of a screen already left, or one the rule does not reload for, does not ask again or hang', async () => {
    const asked: string[] = []
    const { chunks, renderInBoundary } = usePage(() => (asked.push('asked'), false))
    expectConsoleError(/chunk gone|The above error occurred/)
    let fail: (error: Error) => void = () => {}
    const Left = lazyScreen(
      () => new Promise<{ Screen: () => null }>((_, reject) => (fail = reject)),
      (module) => module.Screen,
    )
    renderInBoundary(<Left />).unmount()
    await act(async () => fail(new Error('chunk gone')))
    expect(asked, 'a left screen is not the page’s to reload').toEqual([])
    const Shown = lazyScreen(
      () => Promise.reject(new Error('chunk gone')),
      (module: { Screen: () => null }) => module.Screen,
    )
    renderInBoundary(<Shown />)
    expect(await screen.findByText('caught: chunk gone')).toBeInTheDocument()
    expect(asked, 'the rule said no: the error page').toEqual(['asked'])
    expect(chunks.getSnapshot()).toBe(0)
  })
})
