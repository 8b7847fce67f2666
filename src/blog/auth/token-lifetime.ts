const SECONDS_PER_UNIT: Record<string, number> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 604_800,
  y: 31_557_600,
};

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|y)?$/i;

export const TOKEN_LIFETIME_FORMAT =
  'a lifetime of at least 1 s, as seconds (3600) or 15m, 12h, 7d';

/**
 * A token lifetime in whole seconds, from seconds (a number or a string of digits) or a
 * duration such as `15m` or `7d`; undefined for anything else or anything under one second.
 * jsonwebtoken reads a string of digits as milliseconds, so it is only ever given this number.
 */
export function parseTokenLifetime(value: string | number): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  }
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  const seconds = Math.floor(Number(match[1]) * SECONDS_PER_UNIT[unit]);
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
