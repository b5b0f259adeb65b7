// The bodies of each mail (docs/mail.md): the code in both when the mail has one, and none when it has none; the HTML
// escapes whatever it is given.
import { expect, test } from 'vitest'
import { escapeHtml, renderMail } from './mail-content.ts'
import type { Mail } from './mailbox.ts'

const SENT_AT = '2026-01-02T03:04:05.678Z'

test.each([
  ['signup', 'Confirm your e-mail address', '123456', 'confirm your e-mail address'],
  ['login', 'Your sign-in code', '234567', 'to sign in'],
  ['reset', 'Reset your password', '345678', 'choose a new password'],
  ['account_exists', 'You already have an account', undefined, 'already has an account'],
  ['password_changed', 'Your password was changed', undefined, 'password of your account was just changed'],
] as const)(
  '%s: the text and the HTML say it, with the code in both when there is one',
  (purpose, subject, code, says) => {
    const mail: Mail = { to: 'ada@example.com', subject, purpose, sent_at: SENT_AT, ...(code && { code }) }
    const { text, html } = renderMail(mail)
    expect(text).toContain(says)
    expect(html).toContain(says)
    expect(html).toContain(`<title>${subject}</title>`)
    if (code) {
      expect(text).toContain(`\n\n${code}\n\n`)
      expect(html).toContain(`<strong>${code}</strong>`)
      expect(text).toContain('expires in 10 minutes')
    } else {
      expect(text).not.toMatch(/\d{6}/)
      expect(html).not.toContain('<strong>')
    }
    // The address is not repeated in the body: the mail already goes to it.
    expect(text + html).not.toContain('ada@example.com')
  },
)

test('the HTML escapes what it interpolates', () => {
  const { html, text } = renderMail({
    to: 'ada@example.com',
    subject: '<script>alert("x")</script> & co',
    purpose: 'login',
    code: `<img src=x onerror='1'>`,
    sent_at: SENT_AT,
  })
  expect(html).not.toContain('<script>')
  expect(html).not.toContain('<img')
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co')
  expect(html).toContain('&lt;img src=x onerror=&#39;1&#39;&gt;')
  expect(text).toContain(`<img src=x onerror='1'>`)
})

test.each([
  ['plain', 'plain'],
  [`&<>"'`, '&amp;&lt;&gt;&quot;&#39;'],
  ['&amp;', '&amp;amp;'],
])('escapeHtml(%j) is %j', (input, output) => {
  expect(escapeHtml(input)).toBe(output)
})
