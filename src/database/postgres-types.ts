import type { CustomTypesConfig } from 'pg';

/** PostgreSQL's type id of `timestamptz`, the type of every timestamp column on PostgreSQL. */
export const TIMESTAMPTZ_OID = 1184;

type TextParser = (text: string) => unknown;

const MINUS = 45;
const PLUS = 43;

/** The digit at `index` of `text`, or NaN when it is not one. */
function digitAt(text: string, index: number): number {
  const code = text.charCodeAt(index) - 48;
  return code >= 0 && code <= 9 ? code : NaN;
}

function twoDigitsAt(text: string, index: number): number {
  return digitAt(text, index) * 10 + digitAt(text, index + 1);
}

/**
 * The instant of a `timestamptz` as PostgreSQL writes it with its ISO date style,
 * `YYYY-MM-DD HH:MM:SS[.f{1,6}]±HH[:MM]` with a year from 100 to 9999, read from fixed places;
 * undefined for any other text (other years, BC dates, offsets with seconds, infinity, other
 * date styles), which `parseTimestamptz` hands to node-postgres' own parser.
 */
export function parseIsoTimestamptz(text: string): Date | undefined {
  const length = text.length;
  if (
    length < 22 ||
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== ' ' ||
    text[13] !== ':' ||
    text[16] !== ':'
  ) {
    return undefined;
  }
  const year = twoDigitsAt(text, 0) * 100 + twoDigitsAt(text, 2);
  let index = 19;
  let milliseconds = 0;
  if (text[index] === '.') {
    const first = ++index;
    // Date.UTC keeps the whole milliseconds, as it does of node-postgres' 1000 * parseFloat.
    for (let weight = 100; index < length && index - first < 6; index++, weight /= 10) {
      const digit = digitAt(text, index);
      if (Number.isNaN(digit)) break;
      milliseconds += digit * weight;
    }
    if (index === first) return undefined;
  }
  const sign = text.charCodeAt(index);
  let offsetMinutes: number;
  if (length === index + 3) offsetMinutes = twoDigitsAt(text, index + 1) * 60;
  else if (length === index + 6 && text[index + 3] === ':') {
    offsetMinutes = twoDigitsAt(text, index + 1) * 60 + twoDigitsAt(text, index + 4);
  } else return undefined;
  if ((sign !== PLUS && sign !== MINUS) || !(year >= 100)) return undefined;
  const local = Date.UTC(
    year,
    twoDigitsAt(text, 5) - 1,
    twoDigitsAt(text, 8),
    twoDigitsAt(text, 11),
    twoDigitsAt(text, 14),
    twoDigitsAt(text, 17),
    milliseconds,
  );
  if (Number.isNaN(local) || Number.isNaN(offsetMinutes)) return undefined;
  return new Date(local - (sign === MINUS ? -offsetMinutes : offsetMinutes) * 60_000);
}

/**
 * A `timestamptz` parser that reads PostgreSQL's usual text at fixed places (about a quarter of
 * the time of node-postgres' regular expressions) and hands any other text to `fallback`, the
 * parser it replaces, so that every text gives what `fallback` gives.
 */
export function parseTimestamptz(fallback: TextParser): TextParser {
  return (text) => parseIsoTimestamptz(text) ?? fallback(text);
}

/**
 * The type parsers of the PostgreSQL pool: node-postgres' own, with `timestamptz` read by
 * {@link parseTimestamptz}. Requires `pg` when called, so only a PostgreSQL set-up loads it.
 */
export function postgresTypes(): CustomTypesConfig {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on PostgreSQL only
  const { types } = require('pg') as typeof import('pg');
  const timestamptz = parseTimestamptz(types.getTypeParser(TIMESTAMPTZ_OID, 'text'));
  const getTypeParser = (oid: number, format: 'text' | 'binary' = 'text'): unknown =>
    oid === TIMESTAMPTZ_OID && format === 'text' ? timestamptz : types.getTypeParser(oid, format);
  return { getTypeParser } as CustomTypesConfig;
}
