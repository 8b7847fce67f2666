import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { badUserInput } from './errors';

class InvalidInput extends Error {
  constructor(
    readonly path: string[],
    readonly rule: string,
  ) {
    super(rule);
  }
}

function firstLeaf(errors: ValidationError[], parents: string[] = []): InvalidInput {
  const error = errors[0];
  const path = [...parents, error.property];
  if (error.children?.length) return firstLeaf(error.children, path);
  const rule = Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`;
  return new InvalidInput(path, rule);
}

/**
 * Validates GraphQL arguments and inputs against their class-validator rules; the first broken
 * rule becomes a BAD_USER_INPUT error whose `field` is the path from the argument, e.g.
 * `input.title` for `@Args('input')`, `title` for `@Args()`.
 */
class InputValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      stopAtFirstError: true,
      forbidUnknownValues: false,
      exceptionFactory: (errors) => firstLeaf(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      const field = [...(metadata.data ? [metadata.data] : []), ...error.path].join('.');
      throw badUserInput(`Invalid ${field}: ${error.rule}.`, field);
    }
  }
}

export const inputValidationPipe = new InputValidationPipe();

/** Trims a string input before it is validated and stored. */
export const Trim = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Trims a string input and reads an empty one as null ("remove it"). */
export const TrimToNull = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() || null : value));
