import { expect, test } from 'vitest'
import { searchArticles, type Article } from './help-search.ts'

const articles: Article[] = [
  {
    id: '1',
    title: 'Resetting your password',
    body: 'Use “Forgot your password?” on the sign-in page.',
    tags: ['account'],
  },
  {
    id: '2',
    title: 'Scheduling a call',
    body: 'Pick a date and time on the process page.',
    tags: ['process', 'mentor'],
  },
  { id: '3', title: 'Café hours', body: 'The study café opens at nine.', tags: [] },
]

const rows = [
  { name: 'a blank query: every article', query: '   ', ids: ['1', '2', '3'] },
  { name: 'by title, any case', query: 'RESETTING', ids: ['1'] },
  { name: 'by body', query: 'sign-in', ids: ['1'] },
  { name: 'by tag', query: 'mentor', ids: ['2'] },
  { name: 'a word prefix as you type', query: 'sched', ids: ['2'] },
  { name: 'every word must match', query: 'password page', ids: ['1'] },
  { name: 'words found in different fields', query: 'process call', ids: ['2'] },
  { name: 'accents do not matter', query: 'cafe', ids: ['3'] },
  { name: 'nothing matches', query: 'refund', ids: [] },
] as const

test.each(rows)('$name', ({ query, ids }) => {
  expect(searchArticles(articles, query).map((article) => article.id)).toEqual(ids)
})
