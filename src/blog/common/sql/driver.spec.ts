import { bindValues, countsByKey, toDate } from './driver';
import { translate } from './translate';

describe('bindValues', () => {
  const insert = translate(
    'INSERT INTO t (id, at, ok) SELECT :id, :at, :ok WHERE :id IN (:...ids)',
    'sqlite',
  );
  const at = new Date('2026-11-23T07:45:12.345Z');
  const parameters = { id: 'a', at, ok: true, ids: ['a', 'b'] };

  it('should bind on SQLite a Date as stored UTC text, a boolean as 1 or 0 and a key list as JSON', () => {
    expect(bindValues(insert, parameters, 'sqlite')).toEqual([
      'a',
      '2026-11-23 07:45:12.345',
      1,
      'a',
      '["a","b"]',
    ]);
  });

  it('should bind on PostgreSQL each value as it is', () => {
    const translated = translate(
      'INSERT INTO t (id, at, ok) SELECT :id, :at, :ok WHERE :id IN (:...ids)',
      'postgres',
    );
    expect(bindValues(translated, parameters, 'postgres')).toEqual(['a', at, true, ['a', 'b']]);
  });

  it('should refuse a statement whose parameter has no value', () => {
    expect(() => bindValues(insert, { id: 'a', at, ids: [] }, 'sqlite')).toThrow(
      /No value for :ok/,
    );
  });
});

describe('countsByKey', () => {
  it('should read counts that PostgreSQL returns as text as numbers', () => {
    expect(
      countsByKey([
        { key: 'a', count: '3' },
        { key: 'b', count: 2 },
      ]),
    ).toEqual(
      new Map([
        ['a', 3],
        ['b', 2],
      ]),
    );
  });
});

describe('toDate', () => {
  it('should read the UTC text that TypeORM stores on SQLite, to the millisecond', () => {
    for (const iso of [
      '2026-11-23T07:45:12.345Z',
      '1999-12-31T23:59:59.999Z',
      '2024-02-29T00:00:00.000Z',
      '1970-01-01T00:00:00.001Z',
    ]) {
      const stored = iso.replace('T', ' ').replace('Z', '');
      expect(toDate(stored)?.toISOString()).toBe(iso);
    }
  });

  it('should read other shapes of text, and pass Dates and null through', () => {
    expect(toDate('2026-11-23 07:45:12')?.toISOString()).toBe('2026-11-23T07:45:12.000Z');
    expect(toDate('2026-11-23T07:45:12.345Z')?.toISOString()).toBe('2026-11-23T07:45:12.345Z');
    const date = new Date();
    expect(toDate(date)).toBe(date);
    expect(toDate(null)).toBeNull();
  });
});
