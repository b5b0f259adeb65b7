// The mailbox keeps the newest mails only, sent or restored.
import { expect, test } from 'vitest'
import { createMailbox } from './mailbox.ts'

const clock = { now: () => 0 }

test('past the cap the oldest mails go, sent or restored', async () => {
  const mailbox = createMailbox(clock, 2)
  for (const to of ['a@x.test', 'b@x.test', 'c@x.test'])
    await mailbox.send({ to, subject: 'Your code', purpose: 'signup', code: '123456' })
  expect((await mailbox.list()).map((mail) => mail.to)).toEqual(['b@x.test', 'c@x.test'])
  const restored = createMailbox(clock, 2)
  const sent = await mailbox.snapshot()
  await restored.restore([...sent, { ...sent[0]!, to: 'd@x.test' }])
  expect((await restored.list()).map((mail) => mail.to)).toEqual(['c@x.test', 'd@x.test'])
})
