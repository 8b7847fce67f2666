import { ForbiddenException, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';

import {
  badRequest,
  badUserInput,
  ErrorCode,
  formatGraphQLError,
  formatSocketError,
  messageOf,
  parseFailed,
  refusal,
  reportUnexpectedErrors,
  tooManyRequests,
  validationFailed,
  withStatus,
} from './errors';

const format = (error: unknown) => {
  const graphQLError =
    error instanceof GraphQLError
      ? error
      : new GraphQLError(String(error), { originalError: error as Error, path: ['field'] });
  return formatGraphQLError(graphQLError.toJSON(), graphQLError);
};

describe('formatGraphQLError', () => {
  let logged: jest.SpyInstance;
  beforeEach(
    () => (logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined)),
  );
  afterEach(() => logged.mockRestore());

  it('should pass known errors through with their code and field', () => {
    expect(format(badUserInput('Bad title.', 'title'))).toMatchObject({
      message: 'Bad title.',
      extensions: { code: 'BAD_USER_INPUT', field: 'title' },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('should map Nest HTTP exceptions to codes', () => {
    expect(format(new ForbiddenException('No.'))).toMatchObject({
      message: 'No.',
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('should mask and log anything else', () => {
    const formatted = format(new Error('SQLITE_ERROR: near "DROP": syntax error'));
    expect(formatted).toMatchObject({
      message: 'Internal server error.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(JSON.stringify(formatted)).not.toContain('SQLITE');
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('should mask an error that claims INTERNAL_SERVER_ERROR itself', () => {
    const error = new GraphQLError('secret detail', {
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(format(error).message).toBe('Internal server error.');
  });
});

describe('reportUnexpectedErrors', () => {
  let logged: jest.SpyInstance;
  beforeEach(
    () => (logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined)),
  );
  afterEach(() => logged.mockRestore());

  it("should log only the unexpected errors, with the request's logger, and the formatter none again", () => {
    const failure = new Error('no such table: posts');
    const unexpected = new GraphQLError('no such table: posts', {
      originalError: failure,
      path: ['posts'],
    });
    const known = [badUserInput('first must be at most 100.', 'first'), new ForbiddenException()];
    const errors = [
      unexpected,
      ...known.map((error) =>
        error instanceof GraphQLError
          ? error
          : new GraphQLError('x', { originalError: error, path: ['field'] }),
      ),
    ];
    const lines: [string, string | undefined][] = [];

    reportUnexpectedErrors(errors, (message, stack) => lines.push([message, stack]));
    reportUnexpectedErrors(errors, (message, stack) => lines.push([message, stack]));
    expect(lines).toEqual([['Unexpected error at posts: no such table: posts', failure.stack]]);

    const formatted = formatGraphQLError(unexpected.toJSON(), unexpected);
    expect(formatted.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('the error helpers', () => {
  it.each([
    [badRequest('No.'), 'BAD_REQUEST'],
    [parseFailed('Syntax Error: Unexpected "}".'), 'GRAPHQL_PARSE_FAILED'],
    [validationFailed('Cannot query field "x" on type "Query".'), 'GRAPHQL_VALIDATION_FAILED'],
    [tooManyRequests('Slow down.'), 'TOO_MANY_REQUESTS'],
  ])('should give %p the code %s', (error, code) => {
    expect(error.extensions).toEqual({ code });
  });

  it('should add an HTTP status to a copy, keeping message and extensions', () => {
    const limited = tooManyRequests('Too many writes.', 30);
    const withHttp = withStatus(limited, 429);
    expect(withHttp.message).toBe('Too many writes.');
    expect(withHttp.extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      retryAfter: 30,
      http: { status: 429 },
    });
    expect(limited.extensions).toEqual({ code: 'TOO_MANY_REQUESTS', retryAfter: 30 });
  });

  it('should make a refusal a 400 with its own extensions', () => {
    expect(refusal(ErrorCode.BadUserInput, 'NUL.', { field: 'text' }).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'text',
      http: { status: 400 },
    });
  });

  it.each([
    [new TypeError('disk I/O error'), 'disk I/O error'],
    ['connection reset', 'connection reset'],
    [{ toString: (): string => 'a thrown object' }, 'a thrown object'],
    [undefined, 'undefined'],
  ])('should read the message of %p for a log line', (thrown, message) => {
    expect(messageOf(thrown)).toBe(message);
  });
});

describe('formatSocketError', () => {
  const validation = () =>
    validationFailed('Cannot query field "titel" on type "Post". Did you mean "title"?');

  it('should drop the HTTP status, which means nothing on a socket', () => {
    const formatted = formatSocketError(refusal(ErrorCode.BadRequest, 'No.'), false);
    expect(formatted.extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('should drop suggestions only when asked to', () => {
    expect(formatSocketError(validation(), true).message).toBe(
      'Cannot query field "titel" on type "Post".',
    );
    expect(formatSocketError(validation(), false).message).toContain('Did you mean "title"?');
  });

  it('should mask an unexpected error as the HTTP formatter does', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const failure = new GraphQLError('no such table: users', {
        originalError: new Error('no such table: users'),
      });
      expect(formatSocketError(failure, false).toJSON()).toEqual({
        message: 'Internal server error.',
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    } finally {
      logged.mockRestore();
    }
  });
});
