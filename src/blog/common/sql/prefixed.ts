/**
 * `columns`, a select list of `alias.column` and `alias.column AS "name"` items, with each item
 * named `<prefix>.<name>` instead: for a statement that reads a row of one table beside a row of
 * another, whose names would clash. Derived from the table's own list, so the two cannot drift.
 */
export function prefixedColumns(columns: string, prefix: string): string {
  return columns
    .split(', ')
    .map((item) => {
      const [expression, name = expression.slice(expression.indexOf('.') + 1)] = item.split(' AS ');
      return `${expression} AS "${prefix}.${name.replace(/"/g, '')}"`;
    })
    .join(', ');
}
