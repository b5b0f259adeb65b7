import { describe, expect, test } from 'vitest'
import { createTripReader } from './pg-round-trips.ts'

/** A typed frontend message: its type byte, its length (itself included) and its body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5)
  head.write(type, 0, 'latin1')
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

const cString = (text: string) => Buffer.from(`${text}\0`, 'utf8')

function startup(): Buffer {
  const body = Buffer.concat([cString('user'), cString('bench'), Buffer.from([0])])
  const head = Buffer.alloc(8)
  head.writeInt32BE(body.length + 8, 0)
  head.writeInt32BE(196608, 4)
  return Buffer.concat([head, body])
}

function sslRequest(): Buffer {
  const request = Buffer.alloc(8)
  request.writeInt32BE(8, 0)
  request.writeInt32BE(80877103, 4)
  return request
}

/** What node-postgres writes for a statement with parameters: Parse, Bind, Describe, Execute, Sync at once. */
function extended(statement: string): Buffer {
  return Buffer.concat([
    message('P', Buffer.concat([cString(''), cString(statement), Buffer.from([0, 0])])),
    message('B', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
    message('D', Buffer.concat([Buffer.from('P'), cString('')])),
    message('E', Buffer.concat([cString(''), Buffer.alloc(4)])),
    message('S', Buffer.alloc(0)),
  ])
}

describe('createTripReader', () => {
  const stream = Buffer.concat([
    sslRequest(),
    startup(),
    message('p', cString('SCRAM-SHA-256')),
    message('Q', cString('BEGIN')),
    extended('SELECT id\n  FROM users WHERE id = $1'),
    message('Q', cString('COMMIT')),
  ])
  const expected = ['BEGIN', 'SELECT id FROM users WHERE id = $1', 'COMMIT']

  test('counts one round trip per Query and per Sync, named by the statement', () => {
    const trips: string[] = []
    createTripReader((statement) => trips.push(statement))(stream)
    expect(trips).toEqual(expected)
  })

  test.each([1, 3, 7, 13])('reads the same from chunks of %i bytes', (size) => {
    const trips: string[] = []
    const read = createTripReader((statement) => trips.push(statement))
    for (let at = 0; at < stream.length; at += size) read(stream.subarray(at, at + size))
    expect(trips).toEqual(expected)
  })
})
