// The help page's search: every word of the query must appear, ignoring case and accents.
// Pure: imports nothing of React.
import type { components } from '#api/openapi.gen.ts'

export type Article = components['schemas']['Article']

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()

/** The words of a query, folded; none for a blank query. */
export function getSearchWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean)
}

/**
 * @example
 * searchArticles(articles, 'reset pass') // the articles that mention both "reset" and "pass…"
 */
export function searchArticles(articles: readonly Article[], query: string): Article[] {
  const words = getSearchWords(query)
  if (words.length === 0) return [...articles]
  return articles.filter((article) => {
    const haystack = fold([article.title, article.body, ...article.tags].join('\n'))
    return words.every((word) => haystack.includes(word))
  })
}
