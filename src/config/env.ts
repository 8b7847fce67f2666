import proxyAddr from 'proxy-addr';

/** Raised when an environment variable is missing or malformed; the message names the variable. */
export class InvalidEnvironmentError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid environment variable ${variable}: ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function readString(env: Env, name: string, fallback: string): string {
  return present(env, name) ?? fallback;
}

export function readOptionalString(env: Env, name: string): string | undefined {
  return present(env, name);
}

export function readInteger(
  env: Env,
  name: string,
  fallback: number,
  range: { min: number; max: number },
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw))
    throw new InvalidEnvironmentError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < range.min || value > range.max) {
    throw new InvalidEnvironmentError(name, `expected ${range.min}-${range.max}, got ${value}`);
  }
  return value;
}

export function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new InvalidEnvironmentError(name, `expected true or false, got "${raw}"`);
}

export function readEnum<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new InvalidEnvironmentError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/**
 * A comma-separated list of IP addresses and CIDR ranges in the syntax of proxy-addr's
 * `compile` (`10.0.0.0/8`, `::1`, `192.168.1.0/255.255.255.0`, or the named ranges `loopback`,
 * `linklocal`, `uniquelocal`); empty when unset.
 */
export function readAddressRanges(
  env: Env,
  name: string,
  expected = 'IP addresses or CIDR ranges, such as 10.0.0.0/8,127.0.0.1 or loopback',
): string[] {
  const raw = present(env, name);
  if (raw === undefined) return [];
  const ranges = raw
    .split(',')
    .map((range) => range.trim())
    .filter((range) => range !== '');
  try {
    proxyAddr.compile(ranges);
  } catch (error) {
    throw new InvalidEnvironmentError(
      name,
      `expected ${expected}, got "${raw}" (${(error as Error).message})`,
    );
  }
  return ranges;
}
