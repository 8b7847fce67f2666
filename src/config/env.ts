import proxyAddr from 'proxy-addr';

import {
  BooleanSetting,
  ComputedDefault,
  EnumSetting,
  IntegerSetting,
  isComputed,
  Setting,
  SettingBound,
  TextSetting,
} from './settings.schema';

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

/**
 * The value a loader gives a default that the schema states in words: required where the
 * default is computed, refused where the schema holds it, so that no loader can drift from it.
 */
type LoaderDefault<
  S extends { readonly default: unknown },
  T,
> = S['default'] extends ComputedDefault ? [fallback: T] : [];

/** What a loader gives an integer setting: its computed default, and its bound by another. */
type IntegerGiven<S extends IntegerSetting> = (S['default'] extends ComputedDefault
  ? { default: number }
  : { default?: never }) &
  (S['max'] extends SettingBound ? { max: number } : { max?: never });

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The schema's default of `setting`, or the one its loader computed. */
function defaultOf<T>(setting: Setting, computed: T | undefined): T {
  if (computed !== undefined) return computed;
  if (isComputed(setting.default) || setting.default === null) {
    throw new Error(`The loader of ${setting.name} must give its default, computed or unset`);
  }
  return setting.default as T;
}

export function readString(env: Env, setting: TextSetting & { readonly default: string }): string {
  return present(env, setting.name) ?? setting.default;
}

export function readOptionalString(env: Env, setting: Setting): string | undefined {
  return present(env, setting.name);
}

export function readInteger<S extends IntegerSetting>(
  env: Env,
  setting: S,
  ...given: Partial<IntegerGiven<S>> extends IntegerGiven<S> ? [] : [IntegerGiven<S>]
): number {
  const [computed] = given as [{ default?: number; max?: number }?];
  const { name, min } = setting;
  const max = typeof setting.max === 'number' ? setting.max : computed?.max;
  if (max === undefined) throw new Error(`The loader of ${name} must give its bound`);
  const raw = present(env, name);
  if (raw === undefined) return defaultOf(setting, computed?.default);
  if (!/^\d+$/.test(raw))
    throw new InvalidEnvironmentError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new InvalidEnvironmentError(name, `expected ${min}-${max}, got ${value}`);
  }
  return value;
}

export function readBoolean<S extends BooleanSetting>(
  env: Env,
  setting: S,
  ...fallback: LoaderDefault<S, boolean>
): boolean {
  const raw = present(env, setting.name)?.toLowerCase();
  if (raw === undefined) return defaultOf(setting, fallback[0]);
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new InvalidEnvironmentError(setting.name, `expected true or false, got "${raw}"`);
}

export function readEnum<S extends EnumSetting>(
  env: Env,
  setting: S,
  ...fallback: LoaderDefault<S, S['values'][number]>
): S['values'][number] {
  const raw = present(env, setting.name);
  if (raw === undefined) return defaultOf(setting, fallback[0]);
  if (!(setting.values as readonly string[]).includes(raw)) {
    throw new InvalidEnvironmentError(
      setting.name,
      `expected one of ${setting.values.join(', ')}, got "${raw}"`,
    );
  }
  return raw as S['values'][number];
}

/**
 * A comma-separated list of IP addresses and CIDR ranges in the syntax of proxy-addr's
 * `compile` (`10.0.0.0/8`, `::1`, `192.168.1.0/255.255.255.0`, or the named ranges `loopback`,
 * `linklocal`, `uniquelocal`); empty when unset.
 */
export function readAddressRanges(
  env: Env,
  { name }: Setting,
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
