import ms from 'ms';

/** What {@link parseTokenLifetime} accepts, in words, for a message that refuses a value. */
export const TOKEN_LIFETIME_FORMAT =
  'a lifetime of at least 1 s, as seconds (3600) or 15m, 12h, 7d';

const BARE_NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * A token lifetime in whole seconds, from seconds (a number or a string of digits) or a
 * duration that `ms` reads, such as `15m`, `7d` or `2 hours`; undefined for anything else or
 * anything under one second. `ms` and jsonwebtoken read a string of digits as milliseconds, so
 * digits alone are taken as seconds here, and jsonwebtoken is only ever given this number.
 */
export function parseTokenLifetime(value: string | number): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  }
  const text = value.trim();
  if (!text) return undefined;
  const milliseconds = ms((BARE_NUMBER.test(text) ? `${text}s` : text) as ms.StringValue);
  if (typeof milliseconds !== 'number') return undefined;
  const seconds = Math.floor(milliseconds / 1000);
  return Number.isSafeInteger(seconds) && seconds >= 1 ? seconds : undefined;
}

/** {@link parseTokenLifetime} of the `jwtExpiresIn` module option, which refuses a bad one. */
export function tokenLifetimeOption(value: string | number = '7d'): number {
  const seconds = parseTokenLifetime(value);
  if (seconds === undefined) {
    throw new Error(
      `Invalid BlogModule option jwtExpiresIn: expected ${TOKEN_LIFETIME_FORMAT}, got ${JSON.stringify(value)}`,
    );
  }
  return seconds;
}
