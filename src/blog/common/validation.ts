import { ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { badUserInput } from './errors';

function firstLeaf(
  errors: ValidationError[],
  parents: string[] = [],
): { path: string; message: string } {
  const error = errors[0];
  const path = [...parents, error.property];
  if (error.children?.length) return firstLeaf(error.children, path);
  const message = Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`;
  return { path: path.join('.'), message };
}

/**
 * Validates GraphQL arguments and inputs against their class-validator rules; the first
 * broken rule becomes a BAD_USER_INPUT error that names the field.
 */
export const inputValidationPipe = new ValidationPipe({
  transform: true,
  stopAtFirstError: true,
  forbidUnknownValues: false,
  exceptionFactory: (errors) => {
    const { path, message } = firstLeaf(errors);
    return badUserInput(`Invalid ${path}: ${message}.`, path);
  },
});

/** Trims a string input before it is validated and stored. */
export const Trim = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Trims a string input and reads an empty one as null ("remove it"). */
export const TrimToNull = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() || null : value));
