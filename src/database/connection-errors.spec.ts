import { describeConnectionError, isPermanentConnectionError } from './connection-errors';

const failure = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('connection errors', () => {
  it.each([
    ['a database that does not exist', failure('database "x" does not exist', '3D000')],
    ['a wrong password', failure('password authentication failed for user "u"', '28P01')],
    ['a role that does not exist', failure('role "u" does not exist', '28000')],
    ['a host name that does not resolve', failure('getaddrinfo ENOTFOUND db', 'ENOTFOUND')],
  ])('should not retry %s', (_case, error) => {
    expect(isPermanentConnectionError(error)).toBe(true);
  });

  it.each([
    ['a server that is not listening yet', failure('connect ECONNREFUSED', 'ECONNREFUSED')],
    ['a server starting up', failure('the database system is starting up', '57P03')],
    ['too many connections', failure('sorry, too many clients already', '53300')],
    ['a resolver that did not answer', failure('getaddrinfo EAI_AGAIN db', 'EAI_AGAIN')],
    ['a timeout', new Error('Connection terminated due to connection timeout')],
    ['no error object', 'boom'],
  ])('should retry %s', (_case, error) => {
    expect(isPermanentConnectionError(error)).toBe(false);
  });

  it('should describe an error by its message and code, and an AggregateError by its errors', () => {
    expect(describeConnectionError(failure('database "x" does not exist', '3D000'))).toBe(
      'database "x" does not exist (3D000)',
    );
    expect(describeConnectionError(failure('connect ECONNREFUSED ::1:1', 'ECONNREFUSED'))).toBe(
      'connect ECONNREFUSED ::1:1',
    );
    const both = Object.assign(
      new AggregateError(
        [new Error('connect ECONNREFUSED ::1:1'), new Error('connect ECONNREFUSED 127.0.0.1:1')],
        '',
      ),
      { code: 'ECONNREFUSED' },
    );
    expect(describeConnectionError(both)).toBe(
      'connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});
