import { ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';

/**
 * `COUNT(*)` per value of `column` (a property name) for the given keys, in one grouped
 * statement; keys without rows are absent from the map.
 */
export async function countGroupedBy<T extends ObjectLiteral>(
  repository: Repository<T>,
  column: string,
  keys: readonly string[],
  narrow: (query: SelectQueryBuilder<T>) => SelectQueryBuilder<T> = (query) => query,
): Promise<Map<string, number>> {
  const query = repository
    .createQueryBuilder('row')
    .select(`row.${column}`, 'key')
    .addSelect('COUNT(*)', 'count')
    .where(`row.${column} IN (:...keys)`, { keys: [...keys] })
    .groupBy(`row.${column}`);
  const rows = await narrow(query).getRawMany<{ key: string; count: string | number }>();
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}

export interface FirstPerGroup<T extends ObjectLiteral> {
  /** Rows to rank: a query with alias `ranked` and its filters (including the keys). */
  candidates: SelectQueryBuilder<T>;
  /** The SQL column that groups the rows, e.g. `ranked.author_id`. */
  partitionBy: string;
  /** The SQL order within a group, e.g. `ranked.id ASC`. */
  orderWithinGroup: string;
  /** Rows kept per group. */
  first: number;
  /** The query that loads the kept rows as entities, in the wanted order, with alias `row`. */
  load: SelectQueryBuilder<T>;
}

/**
 * The first `first` rows of every group in one statement (ROW_NUMBER over a partition, which
 * SQLite and PostgreSQL both run), so that a page of children for many parents costs the same
 * as for one.
 */
export function firstPerGroup<T extends ObjectLiteral>(options: FirstPerGroup<T>): Promise<T[]> {
  const ranked = options.candidates
    .select('ranked.id', 'id')
    .addSelect(
      `ROW_NUMBER() OVER (PARTITION BY ${options.partitionBy} ORDER BY ${options.orderWithinGroup})`,
      'rn',
    )
    .orderBy();
  return options.load
    .andWhere(`row.id IN (SELECT r.id FROM (${ranked.getQuery()}) r WHERE r.rn <= :perGroup)`)
    .setParameters({ ...ranked.getParameters(), perGroup: options.first })
    .getMany();
}

/** Splits rows by a key, keeping their order; every key gets an entry. */
export function groupBy<T>(
  keys: readonly string[],
  rows: T[],
  keyOf: (row: T) => string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return groups;
}
