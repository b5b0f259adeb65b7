// The help articles: static content for a learning academy (docs/behaviour.md names the page, not its articles).
import type { components } from '#api/openapi.gen.ts'

export type Article = components['schemas']['Article']

export const ARTICLES: readonly Article[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    body: 'Your home page shows the next step of your enrolment. Work through the steps on the Process page, in order.',
    tags: ['basics', 'process'],
  },
  {
    id: 'schedule-a-step',
    title: 'Scheduling a step',
    body: 'Open the Process page, pick a step and choose a date and time. You can change it until the step is done.',
    tags: ['process', 'calendar'],
  },
  {
    id: 'sign-in-with-a-code',
    title: 'Signing in with a one-time code',
    body: 'On the sign-in page choose "E-mail me a code". The six-digit code is valid for 10 minutes and works once.',
    tags: ['account', 'sign-in'],
  },
  {
    id: 'forgot-password',
    title: 'I forgot my password',
    body: 'Choose "Forgot password?" on the sign-in page. We e-mail you a code; enter it, then choose a new password. Your other sessions are signed out.',
    tags: ['account', 'password'],
  },
  {
    id: 'session-expired',
    title: 'Why was I signed out?',
    body: 'For your safety a session ends when it has been idle for too long, when you sign out elsewhere, or when your password changes. Sign in again to continue.',
    tags: ['account', 'security'],
  },
  {
    id: 'strong-passwords',
    title: 'Choosing a strong password',
    body: 'Use at least 8 characters. Long passphrases are best; we refuse passwords that appear on lists of common passwords.',
    tags: ['password', 'security'],
  },
  {
    id: 'orientation-call',
    title: 'What happens in the orientation call?',
    body: 'A mentor walks you through the academy, helps you choose a course and plans your first weeks with you.',
    tags: ['mentor', 'process'],
  },
  {
    id: 'contact-support',
    title: 'Contacting support',
    body: 'Write to support from your account e-mail address and tell us what you were doing; we answer within one working day.',
    tags: ['support'],
  },
]
