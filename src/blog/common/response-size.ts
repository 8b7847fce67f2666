import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';

import { ErrorCode, responseTooLarge } from './errors';
import type { RequestScope } from './request-scope';

/** The default cap of one operation's serialised answer: 4 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The characters of a text field that cost one unit in the operation's estimated cost. */
const CHARACTERS_PER_COST_UNIT = 1_000;

/**
 * The cost of a text field that may hold up to `maxLength` characters (one unit per thousand):
 * the cost rule multiplies it by the page size of every list above it, so a page of long texts
 * costs what it may return, not 1 per field.
 */
export function textFieldCost(maxLength: number): number {
  return Math.max(1, Math.ceil(maxLength / CHARACTERS_PER_COST_UNIT));
}

/**
 * The resolver of a large text field: charges its length to the operation's response budget
 * (which stops the operation past the limit) and returns it.
 */
export function chargedText(text: string, context: { scope?: RequestScope }): string {
  context.scope?.chargeResponse(text.length);
  return text;
}

/** The one answer of an operation whose answer is too large: the error alone. */
export function responseTooLargeResult(maxBytes: number): FormattedExecutionResult {
  const { message, extensions } = responseTooLarge(maxBytes).toJSON();
  return { errors: [{ message, extensions }], data: null };
}

/**
 * When execution stopped because the answer grew too large, the answer made of that one error
 * (the fields it cut short each carry a copy, and what was built is dropped); otherwise null.
 */
export function collapsedTooLargeResult(
  result: Pick<FormattedExecutionResult, 'errors'>,
): FormattedExecutionResult | null {
  const error = result.errors?.find(
    (candidate: GraphQLFormattedError) => candidate.extensions?.code === ErrorCode.ResponseTooLarge,
  );
  if (!error) return null;
  return { errors: [{ message: error.message, extensions: error.extensions }], data: null };
}

/** True when `text` takes at most `maxBytes` bytes in UTF-8 (counted only when it may not). */
export function fitsInBytes(text: string, maxBytes: number): boolean {
  // A UTF-16 code unit takes 1 to 3 bytes in UTF-8.
  if (text.length * 3 <= maxBytes) return true;
  if (text.length > maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') <= maxBytes;
}

/**
 * The JSON of `value` followed by `end`, or null when it is longer than a string can be: V8
 * throws `RangeError: Invalid string length` past about 2^29 characters, and such an answer
 * passes any response limit. Any other error is thrown.
 */
export function jsonWithin(value: unknown, end = ''): string | null {
  try {
    return `${JSON.stringify(value)}${end}`;
  } catch (error) {
    if (error instanceof RangeError && /string length/i.test(error.message)) return null;
    throw error;
  }
}

/**
 * Apollo Server's `stringifyResult` with the final check of the response limit: an answer
 * whose JSON passes `maxBytes`, or is longer than a string can be, is replaced by the
 * RESPONSE_TOO_LARGE error alone (never a RangeError's 500). The budget that resolvers charge
 * stops most large answers while they are built; this catches the rest.
 */
export function limitedResultStringifier(
  maxBytes: number,
): (result: FormattedExecutionResult) => string {
  return (result) => {
    const text = jsonWithin(result, '\n');
    return text !== null && fitsInBytes(text, maxBytes)
      ? text
      : `${JSON.stringify(responseTooLargeResult(maxBytes))}\n`;
  };
}
