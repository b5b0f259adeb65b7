// One statement at a time tries a database that was lost; the others fail at once (compose/reach-gate.ts).
import { expect, test } from 'vitest'
import { ServiceUnavailableError } from '../shared/unavailable.ts'
import { createReachGate } from './reach-gate.ts'

const LOST = new Error('timeout exceeded when trying to connect')
const REFUSED = Object.assign(new Error('duplicate key'), { code: '23505' })

/** A gate on a clock the test moves, and a statement whose end the test decides. */
function gateAt(retryMs = 1_000) {
  let time = 0
  const gate = createReachGate((error) => error === LOST, { retryMs, now: () => time })
  const pending = () => {
    let settle!: { ok: () => void; fail: (error: unknown) => void }
    const ran = { count: 0 }
    const done = new Promise<string>((resolve, reject) => {
      settle = { ok: () => resolve('answered'), fail: reject }
    })
    const result = gate.run(() => {
      ran.count += 1
      return done
    })
    return { result, ran, settle }
  }
  /** A statement fails with a lost connection. */
  const lose = async () => {
    const lost = pending()
    lost.settle.fail(LOST)
    await expect(lost.result).rejects.toBe(LOST)
  }
  return { gate, pending, lose, advance: (ms: number) => (time += ms) }
}

const fastFailure = (result: Promise<unknown>) =>
  expect(result).rejects.toThrow(
    new ServiceUnavailableError(
      'The database is out of reach (timeout exceeded when trying to connect; one statement at a time tries it again).',
    ),
  )

test('while the database answers, statements run side by side, whatever they fail with', async () => {
  const { pending } = gateAt()
  const first = pending()
  const second = pending()
  second.settle.fail(REFUSED)
  await expect(second.result).rejects.toBe(REFUSED)
  const third = pending()
  expect([first.ran.count, third.ran.count]).toEqual([1, 1])
  first.settle.ok()
  third.settle.ok()
  await expect(Promise.all([first.result, third.result])).resolves.toEqual(['answered', 'answered'])
})

test('a lost connection: the next statements fail at once, without running, until the retry time has passed', async () => {
  const { gate, lose, advance } = gateAt()
  await lose()
  let ran = 0
  await fastFailure(gate.run(async () => void (ran += 1)))
  advance(999)
  await fastFailure(gate.run(async () => void (ran += 1)))
  expect(ran).toBe(0)
  advance(1)
  await gate.run(async () => void (ran += 1))
  expect(ran).toBe(1)
})

test('past the retry time one statement tries; the others fail at once while it does, and all run once it answers', async () => {
  const { gate, pending, lose, advance } = gateAt()
  await lose()
  advance(5_000)
  const trial = pending()
  expect(trial.ran.count).toBe(1)
  await fastFailure(gate.run(async () => 'beside it'))
  trial.settle.ok()
  await trial.result
  await expect(gate.run(async () => 'after it')).resolves.toBe('after it')
})

test('a try that fails again waits a retry time of its own; one the database refuses leaves the next free to try', async () => {
  const { gate, pending, lose, advance } = gateAt()
  await lose()
  advance(1_000)
  const again = pending()
  advance(3_000) // the try itself took a while
  again.settle.fail(LOST)
  await expect(again.result).rejects.toBe(LOST)
  await fastFailure(gate.run(async () => 'too soon'))
  advance(1_000)
  const refused = pending()
  refused.settle.fail(REFUSED)
  await expect(refused.result).rejects.toBe(REFUSED)
  await expect(gate.run(async () => 'the next')).resolves.toBe('the next')
})

test('a statement begun before the loss that answers after it shows the database is back', async () => {
  const { gate, pending, lose } = gateAt(60_000)
  const early = pending()
  await lose()
  await fastFailure(gate.run(async () => 'refused at once'))
  early.settle.ok()
  await early.result
  await expect(gate.run(async () => 'runs')).resolves.toBe('runs')
})

test('a try that hangs lets another try a retry time later; its late failure does not shut the gate again', async () => {
  const { gate, pending, lose, advance } = gateAt()
  await lose()
  advance(1_000)
  const hanging = pending() // on a connection that will wait out its time-out
  await fastFailure(gate.run(async () => 'beside it'))
  advance(1_000) // the database is back meanwhile
  await expect(gate.run(async () => 'the next try')).resolves.toBe('the next try')
  hanging.settle.fail(LOST)
  await expect(hanging.result).rejects.toBe(LOST)
  await expect(gate.run(async () => 'after it')).resolves.toBe('after it')
})
