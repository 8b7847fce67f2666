export { countsByKey, toDate } from './driver';
export { prefixedColumns } from './prefixed';
export {
  DEFAULT_SQLITE_READ_WORKERS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  Sql,
  SQL_OPTIONS,
} from './runner';
export type { Prepared, PreparedStatements, SqlOptions, SqlRunner } from './runner';
export { perDialect, rowId, selected } from './dialect-text';
export { statement } from './statement';
export type { Dialect, KeyCount, SqlText, Statement } from './statement';
export { translate } from './translate';
export type { Translated } from './translate';
