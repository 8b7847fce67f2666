import { types } from 'pg';

import {
  parseIsoTimestamptz,
  parseTimestamptz,
  postgresTypes,
  TIMESTAMPTZ_OID,
} from './postgres-types';

const pgParse = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => unknown;

/** What a parser gave, comparable with `toEqual`: an instant as its time value. */
function outcome(value: unknown): unknown {
  return value instanceof Date ? { time: value.getTime() } : { value };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A seeded generator, so that a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const OFFSETS = ['+00', '-00', '+01', '-08', '+05:30', '-03:30', '+05:45', '+14', '-12', '+13:45'];

/** Timestamps written as PostgreSQL writes them, across years, fractions and offsets. */
function postgresTexts(count: number): string[] {
  const next = random(20_261_129);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const year = 100 + Math.floor(next() * 9900);
    const fraction = '0123456789'.repeat(2).slice(0, Math.floor(next() * 7));
    const digits = fraction.replace(/./g, () => String(Math.floor(next() * 10)));
    texts.push(
      `${pad(year, 4)}-${pad(1 + Math.floor(next() * 12))}-${pad(1 + Math.floor(next() * 28))} ` +
        `${pad(Math.floor(next() * 24))}:${pad(Math.floor(next() * 60))}:${pad(Math.floor(next() * 60))}` +
        `${digits ? `.${digits}` : ''}${OFFSETS[i % OFFSETS.length]}`,
    );
  }
  return texts;
}

/** Texts outside the usual form, or at its edges. */
const EDGES = [
  '2026-11-29 14:08:48+00',
  '2026-11-29 14:08:48.1+00',
  '2026-11-29 14:08:48.999999+00',
  '2026-11-29 14:08:48.9999999+00',
  '2026-11-29 14:08:48.+00',
  '1970-01-01 00:00:00+00',
  '1969-12-31 23:59:59.999+00',
  '0100-01-01 00:00:00+00',
  '0099-12-31 23:59:59+00',
  '0001-01-01 00:00:00+00',
  '0001-01-01 00:00:00+00 BC',
  '2000-02-29 12:00:00+00 BC',
  '9999-12-31 23:59:59.999999+14',
  '10000-01-01 00:00:00+00',
  '275760-09-13 00:00:00+00',
  '1900-01-01 00:00:00+00:19:32',
  '1880-01-01 00:00:00-00:25:21',
  '2026-11-29 14:08:48Z',
  '2026-11-29 14:08:48 +00',
  '2026-11-29T14:08:48+00',
  '2026-11-29 14:08:48+5',
  '2026-11-29 14:08:48+05:3',
  '2026-11-29 14:08:48+05:30x',
  '2026-13-01 00:00:00+00',
  '2026-02-31 25:61:61+00',
  '2026-00-00 00:00:00+00',
  '2026-1a-01 00:00:00+00',
  'x026-11-29 14:08:48+00',
  'infinity',
  '-infinity',
  '2026-11-29',
  '2026-11-29 BC',
  'Sun Nov 29 14:08:48.162009 2026 UTC',
  '',
  'not a date',
];

describe('the timestamptz parser', () => {
  it('gives what node-postgres gives, for 20,000 timestamps written as PostgreSQL writes them', () => {
    const parse = parseTimestamptz(pgParse);
    const differences = postgresTexts(20_000).filter(
      (text) => JSON.stringify(outcome(parse(text))) !== JSON.stringify(outcome(pgParse(text))),
    );
    expect(differences).toEqual([]);
  });

  it('gives what node-postgres gives for every other text, and at the edges', () => {
    const parse = parseTimestamptz(pgParse);
    for (const text of EDGES) {
      expect({ text, ...(outcome(parse(text)) as object) }).toEqual({
        text,
        ...(outcome(pgParse(text)) as object),
      });
    }
  });

  it('reads the usual form itself, and hands only the rest to the parser it replaces', () => {
    const handed: string[] = [];
    const parse = parseTimestamptz((text) => {
      handed.push(text);
      return pgParse(text);
    });
    for (const text of postgresTexts(500)) parse(text);
    expect(handed).toEqual([]);
    for (const text of EDGES) parse(text);
    expect(handed).toEqual(EDGES.filter((text) => parseIsoTimestamptz(text) === undefined));
    expect(handed).toContain('0099-12-31 23:59:59+00');
    expect(handed).toContain('1900-01-01 00:00:00+00:19:32');
    expect(handed).toContain('infinity');
    expect(handed).not.toContain('2026-11-29 14:08:48.999999+00');
  });

  it('keeps whole milliseconds of every fraction of up to six digits, as Date does', () => {
    const differences: string[] = [];
    for (let digits = 1; digits <= 6; digits++) {
      const step = digits <= 4 ? 1 : 37;
      for (let value = 0; value < 10 ** digits; value += step) {
        const text = `2026-11-29 14:08:48.${pad(value, digits)}+00`;
        if (parseIsoTimestamptz(text)?.getTime() !== (pgParse(text) as Date).getTime()) {
          differences.push(text);
        }
      }
    }
    expect(differences).toEqual([]);
  });
});

describe('postgresTypes', () => {
  it('reads timestamptz with the fast parser and leaves every other type to node-postgres', () => {
    const { getTypeParser } = postgresTypes() as unknown as {
      getTypeParser: (oid: number, format?: 'text' | 'binary') => (text: string) => unknown;
    };
    const timestamptz = getTypeParser(TIMESTAMPTZ_OID);
    expect(timestamptz).toBe(getTypeParser(TIMESTAMPTZ_OID, 'text'));
    expect(timestamptz).not.toBe(pgParse);
    expect((timestamptz('2026-11-29 14:08:48.5+05:30') as Date).toISOString()).toBe(
      '2026-11-29T08:38:48.500Z',
    );
    for (const oid of [16, 20, 23, 25, 114, 1082, 1114, 3802]) {
      expect(getTypeParser(oid)).toBe(types.getTypeParser(oid, 'text'));
    }
    expect(getTypeParser(TIMESTAMPTZ_OID, 'binary')).toBe(
      types.getTypeParser(TIMESTAMPTZ_OID, 'binary'),
    );
  });
});
