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
