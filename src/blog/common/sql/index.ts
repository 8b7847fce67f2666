export { countsByKey, toDate } from './driver';
export { prefixedColumns } from './prefixed';
export { Sql } from './runner';
export type { Prepared, PreparedStatements, SqlRunner } from './runner';
export { statement } from './statement';
export type { Dialect, KeyCount, SqlText, Statement } from './statement';
export { translate } from './translate';
export type { Translated } from './translate';
