// Which database errors mean "out of reach" (a 503 the client may retry) and which are the statement's own (a 500):
// a real restart sends admin_shutdown to every connection, which the proxy of database-outage.test.ts cannot.
import { expect, test } from 'vitest'
import { isConnectionLost, isUnreachable } from './sql-drivers.ts'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

test.each([
  ['a refused connection', withCode('ECONNREFUSED'), true],
  ['a reset connection', withCode('ECONNRESET'), true],
  ['admin_shutdown (the server is stopping or restarting)', withCode('57P01'), true],
  ['cannot_connect_now (the server is starting or recovering)', withCode('57P03'), true],
  ['connection_failure', withCode('08006'), true],
  ['too_many_connections', withCode('53300'), true],
  ['a connection lost mid-call', new Error('Connection terminated unexpectedly'), true],
  ['a new connection that took too long', new Error('Connection terminated due to connection timeout'), true],
  ['a pool whose connections are all busy', new Error('timeout exceeded when trying to connect'), true],
  ['a statement the server stopped answering', new Error('Query read timeout'), true],
  ['a unique violation', withCode('23505'), false],
  ['an undefined table', withCode('42P01'), false],
  ['a serialization failure', withCode('40001'), false],
  ['a SQLSTATE that only starts like a connection one', withCode('080000'), false],
  ['a thrown string', 'ECONNREFUSED', false],
])('%s', (_name, error, unreachable) => {
  expect(isUnreachable(error)).toBe(unreachable)
})

// Only a lost connection makes the pool's next statements fail at once (compose/reach-gate.ts): a database that
// answered, even with a refusal it counts as its own trouble, is there.
test.each([
  ['a refused connection', withCode('ECONNREFUSED'), true],
  ['admin_shutdown', withCode('57P01'), true],
  ['a new connection that took too long', new Error('Connection terminated due to connection timeout'), true],
  ['a pool whose connections are all busy', new Error('timeout exceeded when trying to connect'), false],
  ['too_many_connections', withCode('53300'), false],
  ['query_canceled by the statement time-out', withCode('57014'), false],
  ['read_only_sql_transaction', withCode('25006'), false],
  ['a unique violation', withCode('23505'), false],
])('lost connection? %s', (_name, error, lost) => {
  expect(isConnectionLost(error)).toBe(lost)
})
