import { Dialect, SqlText } from './statement';

/** A statement in one database's dialect, and the parameter each of its placeholders takes. */
export interface Translated {
  readonly text: string;
  /** Per placeholder in binding order: `$1..$n` on PostgreSQL, each `?` on SQLite. */
  readonly names: readonly string[];
  /** Per placeholder: whether it takes a key list. */
  readonly keyLists: readonly boolean[];
}

const TOKEN = /'(?:[^']|'')*'|"[^"]*"|::|KEYS\(:\.\.\.(\w+)\)|IN \(:\.\.\.(\w+)\)|:(\.\.\.)?(\w+)/g;

/**
 * SQLite's placeholder. The unary plus keeps the value, its type and how it compares (a bound
 * value has no affinity, with or without it), and keeps the planner from reading the bound
 * value while it plans: SQLite 3.54 (better-sqlite3 13) marks a statement whose plan looked at
 * a bare `?` to be prepared again whenever it is bound, so a join or a page ran 2-5 times
 * slower than its work (the post with its author: 26 µs a run, 5.7 with `+?`).
 */
const SQLITE_PLACEHOLDER = '+?';

/**
 * Translates a statement's named parameters into `dialect`'s placeholders: `$k` on PostgreSQL,
 * the same `$k` for every use of a name; {@link SQLITE_PLACEHOLDER} on SQLite, one per use
 * (`names` repeats the name). Quoted text and PostgreSQL's `::` casts are left as they are.
 */
export function translate(text: SqlText, dialect: Dialect): Translated {
  const source = typeof text === 'string' ? text : text[dialect];
  const postgres = dialect === 'postgres';
  const names: string[] = [];
  const keyLists: boolean[] = [];
  const placeholder = (name: string, keyList: boolean): string => {
    const known = names.indexOf(name);
    if (known >= 0 && keyLists[known] !== keyList) {
      throw new Error(`:${name} is used both as a key list and as a value in: ${source}`);
    }
    if (postgres && known >= 0) return `$${known + 1}`;
    names.push(name);
    keyLists.push(keyList);
    return postgres ? `$${names.length}` : SQLITE_PLACEHOLDER;
  };
  const translated = source.replace(
    TOKEN,
    (token, table?: string, member?: string, spread?: string, name?: string) => {
      if (table) {
        const keys = placeholder(table, true);
        return postgres
          ? `(SELECT unnest(CAST(${keys} AS varchar[])) AS value)`
          : `(SELECT value FROM json_each(${keys}))`;
      }
      if (member) {
        const keys = placeholder(member, true);
        return postgres ? `= ANY(${keys})` : `IN (SELECT value FROM json_each(${keys}))`;
      }
      if (spread) throw new Error(`:...${name} must be in IN (...) or KEYS(...) in: ${source}`);
      return name ? placeholder(name, false) : token;
    },
  );
  return { text: translated, names, keyLists };
}
