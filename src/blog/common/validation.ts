import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

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

/**
 * A character a reader sees: not a space, a control or format character, a default-ignorable one
 * (zero-width space, Hangul fillers, variation selectors, tags), a lone combining mark, a lone
 * surrogate, nor the braille blank (U+2800), which draws nothing.
 */
const VISIBLE =
  /[^\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}\u2800]/u;
/** Control characters (C0, DEL, C1: the escape of terminal sequences included). */
const CONTROL = /\p{Cc}/u;
/** Control characters other than tab and line breaks. */
const CONTROL_BUT_LAYOUT = /[^\P{Cc}\t\n\r]/u;
/** Bidirectional embeddings, overrides and isolates, which can make text read backwards. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** Half of a surrogate pair on its own: not a character at all. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Default-ignorable code points: drawn as nothing (zero-width space and joiners, U+FEFF, the
 * Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, variation selectors, tags).
 */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** True when `value` holds half of a surrogate pair on its own; no text rule takes one. */
export const hasLoneSurrogate = (value: string): boolean => LONE_SURROGATE.test(value);

/** `value` without its default-ignorable code points, for text that is compared by eye. */
export const withoutDefaultIgnorables = (value: string): string =>
  value.replace(DEFAULT_IGNORABLE, '');

const textRule = (name: string, broken: (value: string) => string | undefined) =>
  ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || broken(value) === undefined,
      defaultMessage: (args) =>
        `${args?.property} ${typeof args?.value === 'string' ? broken(args.value) : 'is invalid'}`,
    },
  });

/**
 * One line of text a person reads (a title, a name): at least one visible character, and no
 * control character (tab and line breaks included, and so no terminal escape), no bidirectional
 * control and no lone surrogate.
 */
export const IsVisibleLine = () =>
  textRule('isVisibleLine', (value) => {
    if (CONTROL.test(value)) return 'may not contain control characters';
    if (BIDI_CONTROL.test(value)) return 'may not contain bidirectional control characters';
    if (hasLoneSurrogate(value)) return 'may not contain lone surrogates';
    if (!VISIBLE.test(value)) return 'must contain visible characters';
    return undefined;
  });

/**
 * Text of several lines (post content, a comment): at least one visible character, and no
 * control character but tab, line feed and carriage return (so no terminal escape), and no lone
 * surrogate. Bidirectional controls stay: writers of right-to-left scripts use them.
 */
export const IsVisibleText = () =>
  textRule('isVisibleText', (value) => {
    if (CONTROL_BUT_LAYOUT.test(value)) {
      return 'may not contain control characters other than tab and line breaks';
    }
    if (hasLoneSurrogate(value)) return 'may not contain lone surrogates';
    if (!VISIBLE.test(value)) return 'must contain visible characters';
    return undefined;
  });
