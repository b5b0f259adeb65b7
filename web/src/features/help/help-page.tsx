// /help: the help articles (GET /api/help), searched as you type (title, body, tags); each one opens in place.
import { useId, useState } from 'react'
import { useDocumentTitle } from '../../lib/browser/document-title.ts'
import { answerOf, useLoad, type Loader } from '../../lib/services/use-load.ts'
import { searchArticles, type Article } from './help-search.ts'

const loadArticles: Loader<Article[]> = (api) => answerOf(api.GET('/api/help'), (data) => data.articles)

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
  const { state: load, reload } = useLoad(loadArticles)
  return (
    <section aria-labelledby="help-heading">
      <h1 id="help-heading">Help</h1>
      {load.status === 'loading' ? (
        <p aria-busy="true">Loading the help articles…</p>
      ) : load.status === 'failed' ? (
        <>
          <p role="alert">{load.message}</p>
          <button type="button" onClick={reload}>
            Try again
          </button>
        </>
      ) : (
        <Articles articles={load.data} />
      )}
    </section>
  )
}
