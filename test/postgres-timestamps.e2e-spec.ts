import { types } from 'pg';
import { DataSource } from 'typeorm';

import { loadDatabaseConfig } from '../src/config';
import { createPostgresDatabase } from './helpers/databases';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { parseIsoTimestamptz, TIMESTAMPTZ_OID } from '../src/database/postgres-types';

/**
 * The service reads `timestamptz` with its own parser (src/database/postgres-types.ts), a faster
 * path than node-postgres' own: here PostgreSQL writes timestamps in several time zones, and
 * every value the service's pool reads must be the instant node-postgres reads from the same
 * text. PostgreSQL only: SQLite has no such type.
 */

const pgParse = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => unknown;

const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Kiritimati',
  'America/Los_Angeles',
  'Europe/Amsterdam',
  'Asia/Kathmandu',
];

/** Instants across the range PostgreSQL writes, with and without fractions, historic ones too. */
const INSTANTS = `
  SELECT t FROM (VALUES
    ('2026-11-29 14:08:48.162009+00'::timestamptz), ('2026-11-29 14:08:48+00'),
    ('2026-03-29 01:30:00.5+00'), ('2026-10-25 00:59:59.999999+00'), ('1970-01-01 00:00:00+00'),
    ('1969-12-31 23:59:59.999+00'), ('1900-01-01 00:00:00+00'), ('1880-06-30 12:00:00.25+00'),
    ('0100-01-01 00:00:00+00'), ('0050-06-15 12:00:00+00'), ('0001-01-01 00:00:00+00'),
    ('0044-03-15 12:00:00+00 BC'), ('9999-12-31 23:59:59.999999+00'),
    ('12345-06-07 08:09:10+00'), ('infinity'), ('-infinity'), (NULL)
  ) AS v(t)
  UNION ALL
  SELECT '2000-01-01 00:00:00+00'::timestamptz + n * interval '7 days 3 hours 17 minutes 0.123457 seconds'
  FROM generate_series(0, 1999) AS n`;

describe('timestamptz read from PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const config = loadDatabaseConfig({ DATABASE_URL: database.url });
    dataSource = await new DataSource(buildDataSourceOptions(config)).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it("reads them with the service's parser", () => {
    const pool = (dataSource.driver as unknown as { master: { options: { types: unknown } } })
      .master;
    const { getTypeParser } = pool.options.types as {
      getTypeParser: (oid: number, format?: string) => unknown;
    };
    expect(getTypeParser(TIMESTAMPTZ_OID, 'text')).not.toBe(pgParse);
  });

  it.each(ZONES)('gives what node-postgres gives, in the time zone %s', async (zone) => {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query(`SET TIME ZONE '${zone}'`);
      const rows: { at: unknown; text: string | null }[] = await runner.query(
        `SELECT t AS at, t::text AS text FROM (${INSTANTS}) AS i`,
      );
      expect(rows.length).toBe(2017);
      const read = (value: unknown) => (value instanceof Date ? value.getTime() : value);
      const differences = rows.filter(
        ({ at, text }) => read(at) !== read(text === null ? null : pgParse(text)),
      );
      expect(differences).toEqual([]);
      // Most of them went the fast way: the usual form, read at fixed places.
      const fast = rows.filter(({ text }) => text !== null && parseIsoTimestamptz(text));
      expect(fast.length).toBeGreaterThan(2000);
    } finally {
      await runner.release();
    }
  });
});
