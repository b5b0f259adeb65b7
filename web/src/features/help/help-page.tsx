// /help: the help articles (GET /api/help), searched as you type (title, body, tags); each one opens in place.
import { useCallback, useEffect, useId, useState } from 'react'
import { getErrorMessage, NETWORK_ERROR_MESSAGE } from '../../api/error-messages.ts'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { useServices } from '../../lib/services/services.ts'
import { searchArticles, type Article } from './help-search.ts'

type Load =
  { status: 'loading' } | { status: 'ready'; articles: Article[] } | { status: 'failed'; message: string }

function useArticles() {
  const { api } = useServices()
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const fetchArticles = useCallback(async () => {
    setLoad({ status: 'loading' })
    try {
      const { data, error } = await api.GET('/api/help')
      setLoad(
        data
          ? { status: 'ready', articles: data.articles }
          : { status: 'failed', message: getErrorMessage(error) },
      )
    } catch {
      setLoad({ status: 'failed', message: NETWORK_ERROR_MESSAGE })
    }
  }, [api])
  useEffect(() => {
    void fetchArticles()
  }, [fetchArticles])
  return { load, fetchArticles }
}

function ArticleItem({ article }: { article: Article }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <li className="article">
      <h2>
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {article.title}
        </button>
      </h2>
      <div id={id} role="region" aria-label={article.title} hidden={!open}>
        <p>{article.body}</p>
        {article.tags.length > 0 ? <p className="tags">Tags: {article.tags.join(', ')}</p> : null}
      </div>
    </li>
  )
}

function Articles({ articles }: { articles: Article[] }) {
  const [query, setQuery] = useState('')
  const found = searchArticles(articles, query)
  const searching = query.trim() !== ''
  if (articles.length === 0) return <p>There are no help articles yet.</p>
  return (
    <>
      <div className="field">
        <label htmlFor="help-search">Search help</label>
        <input
          id="help-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <p role="status">
        {searching ? `${found.length} of ${articles.length} articles match.` : `${articles.length} articles.`}
      </p>
      {found.length === 0 ? (
        <div>
          <p>No articles match “{query.trim()}”. Try other words, or fewer.</p>
          <button type="button" onClick={() => setQuery('')}>
            Clear the search
          </button>
        </div>
      ) : (
        <ul className="articles">
          {found.map((article) => (
            <ArticleItem key={article.id} article={article} />
          ))}
        </ul>
      )}
    </>
  )
}

export function HelpPage() {
  useDocumentTitle('Help')
  const { load, fetchArticles } = useArticles()
  return (
    <section aria-labelledby="help-heading">
      <h1 id="help-heading">Help</h1>
      {load.status === 'loading' ? (
        <p aria-busy="true">Loading the help articles…</p>
      ) : load.status === 'failed' ? (
        <>
          <p role="alert">{load.message}</p>
          <button type="button" onClick={() => void fetchArticles()}>
            Try again
          </button>
        </>
      ) : (
        <Articles articles={load.articles} />
      )}
    </section>
  )
}
