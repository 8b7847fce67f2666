import type { Dialect } from './statement';

/**
 * A value selected rather than listed (INSERT ... SELECT): PostgreSQL reads an untyped parameter
 * in a select list as text, which does not fit a timestamp column or the varchar it is compared
 * to; there it is cast.
 */
export const selected = (dialect: Dialect, name: string, type = 'varchar'): string =>
  dialect === 'postgres' ? `CAST(:${name} AS ${type})` : `:${name}`;

/** A statement's text per database, made by one function of the dialect. */
export const perDialect = (make: (dialect: Dialect) => string): Record<Dialect, string> => ({
  sqlite: make('sqlite'),
  postgres: make('postgres'),
});

/**
 * A new v7-like id per row, made by the database: the time prefix of the write (`idPrefix`,
 * `xxxxxxxx-xxxx`, the same for every row of one statement) passed in, then version 7, random
 * bits and the RFC variant.
 */
export const rowId = (dialect: Dialect): string =>
  dialect === 'postgres'
    ? "CAST(:idPrefix AS text) || '-7' || substr(CAST(gen_random_uuid() AS text), 16)"
    : ":idPrefix || '-7' || substr(lower(hex(randomblob(2))), 2) || '-' || " +
      "substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || " +
      'lower(hex(randomblob(6)))';
