import { ApolloServerErrorCode, unwrapResolverError } from '@apollo/server/errors';
import { HttpException, Logger } from '@nestjs/common';
import { GraphQLError, GraphQLFormattedError } from 'graphql';

import { withoutSuggestions } from './suggestions';

/** The `extensions.code` values a client can see. */
export enum ErrorCode {
  Unauthenticated = 'UNAUTHENTICATED',
  Forbidden = 'FORBIDDEN',
  BadUserInput = 'BAD_USER_INPUT',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  TooManyRequests = 'TOO_MANY_REQUESTS',
  InternalServerError = 'INTERNAL_SERVER_ERROR',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  /** The answer would pass the response size limit; nothing of it is sent. */
  ResponseTooLarge = 'RESPONSE_TOO_LARGE',
  /** The client closed the connection before the answer: the rest of the work was dropped. */
  ClientClosedRequest = 'CLIENT_CLOSED_REQUEST',
  /** A request this server does not take in that form (a subscription over HTTP, say). */
  BadRequest = 'BAD_REQUEST',
  /** A database statement ran past its time budget and was given up; the service stays up. */
  StatementTimeout = 'STATEMENT_TIMEOUT',
  /** An automatic persisted query whose `sha256Hash` is not the hash of its `query`. */
  PersistedQueryHashMismatch = 'PERSISTED_QUERY_HASH_MISMATCH',
  /** An automatic persisted query of a version other than 1. */
  PersistedQueryNotSupported = 'PERSISTED_QUERY_NOT_SUPPORTED',
}

function error(
  code: ErrorCode | ApolloServerErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
) {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export const unauthenticated = (message = 'You must be signed in.') =>
  error(ErrorCode.Unauthenticated, message);

export const forbidden = (
  message = 'You may not do this.',
  extensions: Record<string, unknown> = {},
) => error(ErrorCode.Forbidden, message, extensions);

/** Bad input; `field` names the argument or input field at fault. */
export const badUserInput = (message: string, field?: string) =>
  error(ErrorCode.BadUserInput, message, field ? { field } : {});

export const notFound = (what: string) => error(ErrorCode.NotFound, `${what} was not found.`);

/** A rate limit was reached; `retryAfter` says in how many seconds to try again. */
export const tooManyRequests = (message: string, retryAfter?: number) =>
  error(ErrorCode.TooManyRequests, message, retryAfter === undefined ? {} : { retryAfter });

/** A conflict with the current state; `extensions` say more (where an image is used, say). */
export const conflict = (
  message: string,
  field?: string,
  extensions: Record<string, unknown> = {},
) => error(ErrorCode.Conflict, message, { ...(field ? { field } : {}), ...extensions });

/** A request this server does not take in that form. */
export const badRequest = (message: string) => error(ErrorCode.BadRequest, message);

/** A document that does not parse. */
export const parseFailed = (message: string) =>
  error(ApolloServerErrorCode.GRAPHQL_PARSE_FAILED, message);

/** A document that does not validate against the schema. */
export const validationFailed = (message: string) =>
  error(ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED, message);

/** A dependency the operation needs is down: the client may retry later. */
export const serviceUnavailable = (message: string) => error(ErrorCode.ServiceUnavailable, message);

/** The answer of an operation passed `maxResponseBytes`; the client gets this error alone. */
export const responseTooLarge = (maxResponseBytes: number) =>
  error(
    ErrorCode.ResponseTooLarge,
    `The answer would be larger than ${maxResponseBytes} bytes, the most one operation may return. Ask for fewer fields, smaller pages or fewer aliases.`,
    { maxResponseBytes },
  );

/** A statement of the operation ran past `timeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS). */
export const statementTimeout = (timeoutMs: number) =>
  error(
    ErrorCode.StatementTimeout,
    `A database statement took longer than ${timeoutMs} ms and was stopped. Ask for less (fewer aliases, smaller pages, fewer search words) or try again later.`,
    { timeoutMs },
  );

/** Why the work of a request whose client has gone was stopped (nobody reads it). */
export const clientClosedRequest = () =>
  error(
    ErrorCode.ClientClosedRequest,
    'The client closed the connection; the request was stopped.',
  );

/**
 * `error` with the HTTP status Apollo answers it with when it is thrown before execution (Apollo
 * takes the status from `extensions.http` and leaves it out of the answer).
 */
export function withStatus(refused: GraphQLError, status: number): GraphQLError {
  return new GraphQLError(refused.message, {
    extensions: { ...refused.extensions, http: { status } },
  });
}

/** A request refused before anything runs, with HTTP status 400. */
export const refusal = (
  code: ErrorCode | ApolloServerErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
) => withStatus(error(code, message, extensions), 400);

const PASSED_THROUGH = new Set<string>([
  ...Object.values(ErrorCode).filter((code) => code !== ErrorCode.InternalServerError),
  ApolloServerErrorCode.GRAPHQL_PARSE_FAILED,
  ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
  ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE,
  ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND,
]);

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: ErrorCode.BadUserInput,
  401: ErrorCode.Unauthenticated,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  429: ErrorCode.TooManyRequests,
};

const logger = new Logger('GraphQL');

/** The code of a Nest HTTP exception whose status has one (400, 401, 403, 404, 409, 429). */
function httpCodeOf(original: unknown): ErrorCode | undefined {
  return original instanceof HttpException ? HTTP_STATUS_CODES[original.getStatus()] : undefined;
}

/** True for a code that reaches the client as it is: the blog's own, and Apollo's request errors. */
function passesThrough(code: unknown): code is string {
  return typeof code === 'string' && PASSED_THROUGH.has(code);
}

/** The message of a thrown value, for a log line: an Error's own, or the value as text. */
export const messageOf = (thrown: unknown): string =>
  thrown instanceof Error ? thrown.message : String(thrown);

/** Unexpected errors already logged with their request's logger, by {@link reportUnexpectedErrors}. */
const reported = new WeakSet<object>();

function unexpectedErrorLine(
  error: Pick<GraphQLFormattedError, 'path' | 'message'>,
  original: unknown,
): { message: string; stack?: string } {
  return {
    message: `Unexpected error at ${error.path?.join('.') ?? '(request)'}: ${error.message}`,
    stack: original instanceof Error ? original.stack : undefined,
  };
}

/**
 * Logs the unexpected errors among `errors` (those that {@link formatGraphQLError} masks as
 * INTERNAL_SERVER_ERROR) with `log`, the logger of their request, and marks them so that the
 * formatter does not log them a second time. For a plugin's `didEncounterErrors`, which knows
 * the request where the formatter does not.
 */
export function reportUnexpectedErrors(
  errors: readonly GraphQLError[],
  log: (message: string, stack?: string) => void,
): void {
  for (const error of errors) {
    const original = unwrapResolverError(error);
    const expected = httpCodeOf(original) || passesThrough(error.extensions?.code);
    if (expected || reported.has(error)) continue;
    reported.add(error);
    const { message, stack } = unexpectedErrorLine(error, original);
    log(message, stack);
  }
}

/**
 * Apollo's `formatError`: known errors keep their message and code, without stack traces;
 * anything else reaches the client as a generic INTERNAL_SERVER_ERROR and is logged in full.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  raw: unknown,
): GraphQLFormattedError {
  const original = unwrapResolverError(raw);
  const code = formatted.extensions?.code;
  const base = { locations: formatted.locations, path: formatted.path };

  const httpCode = httpCodeOf(original);
  if (httpCode) {
    return {
      ...base,
      message: httpExceptionMessage(original as HttpException),
      extensions: { code: httpCode },
    };
  }
  if (passesThrough(code)) {
    const { stacktrace, exception, ...extensions } = formatted.extensions ?? {};
    return { ...base, message: formatted.message, extensions: { ...extensions, code } };
  }
  if (!reported.has(raw as object)) {
    const { message, stack } = unexpectedErrorLine(formatted, original);
    logger.error(message, stack);
  }
  return {
    ...base,
    message: 'Internal server error.',
    extensions: { code: ErrorCode.InternalServerError },
  };
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const message = (response as { message: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  return exception.message;
}

/**
 * {@link formatGraphQLError} for a WebSocket message, where no HTTP status applies: the error as
 * the client sees it, without `extensions.http`, and without schema suggestions when
 * `hideSuggestions` (variable errors included).
 */
export function formatSocketError(raw: GraphQLError, hideSuggestions: boolean): GraphQLError {
  const formatted = formatGraphQLError(raw.toJSON(), raw);
  const { http, ...extensions } = formatted.extensions ?? {};
  const message = hideSuggestions ? withoutSuggestions(formatted.message) : formatted.message;
  return new GraphQLError(message, { path: formatted.path, extensions });
}
