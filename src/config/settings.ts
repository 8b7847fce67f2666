import { InvalidEnvironmentError } from './env';
import { OTHER_OTEL_SDK_SETTINGS, Setting, SETTING_LIST, SettingName } from './settings.schema';

/** Every variable the service's configuration loaders read (a unit spec holds them to it). */
export const SERVICE_SETTINGS: readonly SettingName[] = namesReadBy(undefined);

/** Standard OpenTelemetry variables that the tracing SDK reads itself, once tracing is on. */
export const OTEL_SDK_SETTINGS: readonly string[] = [
  ...namesReadBy('opentelemetry'),
  ...OTHER_OTEL_SDK_SETTINGS,
];

/** Settings of the npm scripts (`npm run check:contract`), not of the service. */
export const SCRIPT_SETTINGS: readonly SettingName[] = namesReadBy('scripts');

function namesReadBy(reader: Setting['readBy']): SettingName[] {
  return SETTING_LIST.filter((setting) => setting.readBy === reader).map(
    (setting) => setting.name as SettingName,
  );
}

const KNOWN = new Set<string>([...SERVICE_SETTINGS, ...OTEL_SDK_SETTINGS, ...SCRIPT_SETTINGS]);

/**
 * The known setting that `name` is most likely a misspelling of: the same name in other case,
 * or one a small edit away (one edit for names of up to 6 characters, two for longer ones, so
 * that PGHOST is not taken for HOST; of two as close, the first in the schema). Undefined for a
 * known name or one close to none.
 */
export function misspeltSetting(name: string): string | undefined {
  if (KNOWN.has(name)) return undefined;
  let best: { setting: string; distance: number } | undefined;
  for (const setting of KNOWN) {
    const distance = editDistance(name.toUpperCase(), setting);
    const allowed = setting.length <= 6 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { setting, distance };
  }
  return best?.setting;
}

/**
 * Refuses a variable of `.env` that is not a setting but is close to one ("did you mean
 * JWT_SECRET?"): a misspelt security setting would otherwise be ignored and its default used.
 * Names close to none are left alone, since `.env` files hold other tools' settings too.
 */
export function refuseMisspeltSettings(names: Iterable<string>): void {
  for (const name of names) {
    const setting = misspeltSetting(name);
    if (setting) {
      throw new InvalidEnvironmentError(
        name,
        `.env sets it, but the service reads no such setting; did you mean ${setting}?`,
      );
    }
  }
}

/** Optimal string alignment distance: insertions, deletions, substitutions and transpositions. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}
