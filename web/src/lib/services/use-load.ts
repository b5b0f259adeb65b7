// The one data pattern of the screens: load on mount, show loading, ready or failed, load again on "Try again".
// A hook, not react-router loaders: a loader runs before the sign-in guard has waited for the session
// (docs/behaviour.md: Routes "The guard"), and outside the services context.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ApiClient } from '../../api/client.ts'
import { getErrorMessage, NETWORK_ERROR_MESSAGE, type ErrorBody } from '../../api/error-messages.ts'
import { useServices } from './services.ts'

export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; message: string }

/** What a loader ends with: the data, or the sentence a page shows instead. */
export type LoadResult<T> = { data: T } | { message: string }

/**
 * Loads a page's data. `show` publishes a first part while the rest loads.
 * A loader that throws fails with NETWORK_ERROR_MESSAGE.
 */
export type Loader<T> = (api: ApiClient, show: (partial: T) => void) => Promise<LoadResult<T>>

/**
 * The result of an openapi-fetch call as a LoadResult: `pick` the data, or the error-message table's sentence.
 * @example
 * const load: Loader<Article[]> = (api) => answerOf(api.GET('/api/help'), (data) => data.articles)
 */
export async function answerOf<D, T>(
  call: Promise<{ data?: D; error?: ErrorBody | null | undefined }>,
  pick: (data: D) => T | null,
): Promise<LoadResult<T>> {
  const { data, error } = await call
  const picked = data === undefined ? null : pick(data)
  return picked === null ? { message: getErrorMessage(error) } : { data: picked }
}

export interface LoadHandle<T> {
  state: Loaded<T>
  /** Loads again from the start (the "Try again" button). */
  reload: () => void
  /** Changes the data in place while it is shown; nothing happens otherwise. */
  update: (change: (data: T) => T) => void
}

/**
 * Runs `load` on mount and on `reload`; `load` should be a module function or a stable callback. Only the latest
 * run's answers are applied, and none once the page is gone.
 * @example
 * const { state, reload } = useLoad(loadArticles)
 */
export function useLoad<T>(load: Loader<T>): LoadHandle<T> {
  const { api } = useServices()
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const latest = useRef(0)

  const run = useCallback(async () => {
    const id = ++latest.current
    const current = () => latest.current === id
    setState({ status: 'loading' })
    let result: LoadResult<T>
    try {
      result = await load(api, (partial) => {
        if (current()) setState({ status: 'ready', data: partial })
      })
    } catch {
      result = { message: NETWORK_ERROR_MESSAGE }
    }
    if (!current()) return
    setState(
      'data' in result
        ? { status: 'ready', data: result.data }
        : { status: 'failed', message: result.message },
    )
  }, [api, load])

  useEffect(() => {
    void run()
    return () => {
      latest.current++ // the page is gone, or runs again (StrictMode): what is in flight is dropped
    }
  }, [run])

  const reload = useCallback(() => void run(), [run])
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((current) =>
        current.status === 'ready' ? { status: 'ready', data: change(current.data) } : current,
      ),
    [],
  )
  return { state, reload, update }
}
