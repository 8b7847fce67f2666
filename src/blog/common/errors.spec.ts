import { ForbiddenException, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';

import { badUserInput, formatGraphQLError, reportUnexpectedErrors } from './errors';

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
