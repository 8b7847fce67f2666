/** The databases the blog runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** A statement's text: the same for both databases, or one per database. */
export type SqlText = string | Readonly<Record<Dialect, string>>;

/**
 * A statement as a feature writes it in its `<feature>.sql.ts`, with named parameters:
 * `:name` is a value (a name used twice is one parameter), `IN (:...name)` tests membership in
 * a key list and `KEYS(:...name)` reads a key list as a table of one column, `value`. A key list
 * travels as one parameter whatever its length. `P` names the parameters, `R` types a row.
 */
export interface Statement<P extends object = object, R = unknown> {
  readonly text: SqlText;
  /**
   * PostgreSQL plans it for the values of each run, instead of once for all: for a statement
   * whose best plan depends on its values. Every other statement is a named prepared statement,
   * planned once per connection.
   */
  readonly planEachRun?: boolean;
  /**
   * A read whose work grows with the data (a search, a count, a filter by tags): on SQLite it
   * runs on a reader thread, under the statement time budget, so that it never holds the event
   * loop. Every other statement is a point read or a short page along an index, and runs on the
   * connection itself: sending it to a thread and its rows back costs more than it does.
   */
  readonly runsLong?: boolean;
  /** Never set: carries `P` and `R` to {@link Sql.all} and {@link Sql.run}. */
  readonly types?: { parameters: P; row: R };
}

/** Declares a statement; see {@link Statement}. */
export function statement<P extends object = object, R = unknown>(
  text: SqlText,
  options: { planEachRun?: boolean; runsLong?: boolean } = {},
): Statement<P, R> {
  return {
    text,
    ...(options.planEachRun ? { planEachRun: true } : {}),
    ...(options.runsLong ? { runsLong: true } : {}),
  };
}

/** `SELECT key, COUNT(*) AS count ... GROUP BY key`, read by {@link countsByKey}. */
export interface KeyCount {
  key: string;
  count: string | number;
}
