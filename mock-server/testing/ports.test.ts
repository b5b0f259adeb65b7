import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { pickRange, unclaimedPort } from './ports.ts'
import { scratchDir } from './scratch-dir.ts'

async function listenOn(port: number): Promise<Server> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return server
}

test('ports are picked below the range the kernel hands out for port 0, or above 10000 where it leaves no room', () => {
  const dir = scratchDir('ports')
  const file = (text: string) => (writeFileSync(join(dir, 'range'), text), join(dir, 'range'))
  expect(pickRange(file('32768\t60999\n'))).toEqual({ from: 10_000, to: 32_767 })
  expect(pickRange(file('15000 65000'))).toEqual({ from: 10_000, to: 14_999 })
  expect(pickRange(file('1024 65535'))).toEqual({ from: 10_000, to: 65_535 })
  expect(pickRange(join(dir, 'none'))).toEqual({ from: 10_000, to: 32_767 })
})

test('the port is free, and one a server listens on is passed over', async () => {
  const { from, to } = pickRange()
  const port = await unclaimedPort()
  expect(port).toBeGreaterThanOrEqual(from)
  expect(port).toBeLessThanOrEqual(to)
  await listenOn(port)
  // The first draw lands on the port now taken, the second elsewhere.
  const draws = [(port - from + 0.5) / (to - from + 1), 0.5]
  const next = await unclaimedPort(() => draws.shift() ?? Math.random())
  expect(next).not.toBe(port)
  await listenOn(next)
})
