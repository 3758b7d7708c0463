import { describe, expect, it } from '@jest/globals';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { isDatabaseUnavailable } from './connection-errors.js';

function pgError(code: string, message = 'error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is away, however the error is wrapped', () => {
    const cases: unknown[] = [
      pgError('ECONNREFUSED'),
      pgError('ECONNRESET'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      pgError('53300', 'sorry, too many clients already'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]),
      new Error('outer', { cause: pgError('57P01') }),
      new QueryRunnerAlreadyReleasedError(),
      new QueryRunnerProviderAlreadyReleasedError(),
      new Error('outer', { cause: new QueryRunnerProviderAlreadyReleasedError() }),
    ];
    expect(cases.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
  });

  it('leaves errors the request caused to their own mapping', () => {
    const cases: unknown[] = [
      pgError('23505', 'duplicate key'),
      pgError('08P01', 'bind message supplies 4 parameters, but prepared statement requires 65540'),
      pgError('40001'),
      new QueryFailedError('SELECT', [], pgError('22P02', 'invalid input syntax')),
      new Error('something else'),
      undefined,
      'text',
    ];
    expect(cases.filter((error) => isDatabaseUnavailable(error))).toEqual([]);
  });
});
