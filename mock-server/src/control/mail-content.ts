// The words of each mail the product sends, as plain text and as HTML (docs/mail.md). Pure: no Node module, no I/O.
// Every value put into the HTML is escaped, the code and the subject included, though today they are the server's own.
import { CODE_TTL_MS, MINUTE_MS } from '../shared/constants.ts'
import type { Mail, MailPurpose } from './mailbox.ts'

const ONCE = `It works once and expires in ${CODE_TTL_MS / MINUTE_MS} minutes.`

export interface MailContent {
  text: string
  html: string
}

/** What a mail says besides its code: the lead-in and the line after it. */
const WORDS: Record<MailPurpose, { lead: string; after: string }> = {
  signup: {
    lead: 'Enter this code to confirm your e-mail address:',
    after: `${ONCE} If you did not sign up, ignore this mail.`,
  },
  login: {
    lead: 'Enter this code to sign in:',
    after: `${ONCE} If you did not ask for it, ignore this mail.`,
  },
  reset: {
    lead: 'Enter this code to choose a new password:',
    after: `${ONCE} If you did not ask for it, your password stays as it is.`,
  },
  account_exists: {
    lead: 'Someone tried to sign up with this address, which already has an account.',
    after:
      'If it was you, sign in, or use "Forgot your password?". If not, nothing changed: ignore this mail.',
  },
  password_changed: {
    lead: 'The password of your account was just changed, and your other sessions were signed out.',
    after: 'If it was not you, use "Forgot your password?" now to choose a new one.',
  },
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)
}

/**
 * The two bodies of a mail; the code, when the mail has one, is in both.
 * @example
 * renderMail({ to: 'ada@example.com', subject: 'Your sign-in code', purpose: 'login', code: '123456', sent_at: '…' })
 * // { text: 'Enter this code to sign in:\n\n123456\n\n…', html: '<!doctype html>…<strong …>123456</strong>…' }
 */
export function renderMail(mail: Mail): MailContent {
  const words = WORDS[mail.purpose]
  const text = [words.lead, ...(mail.code === undefined ? [] : [mail.code]), words.after].join('\n\n')
  const code =
    mail.code === undefined
      ? ''
      : `<p style="font-size:24px;letter-spacing:4px"><strong>${escapeHtml(mail.code)}</strong></p>`
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head>`,
    '<body style="font-family:sans-serif">',
    `<p>${escapeHtml(words.lead)}</p>${code}<p>${escapeHtml(words.after)}</p>`,
    '</body></html>',
  ].join('\n')
  return { text: `${text}\n`, html: `${html}\n` }
}
