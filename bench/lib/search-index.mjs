/**
 * SQLite's search index as the bench writes it outside our service. Since the migration
 * 1765000900000 the trigger on a new post leaves its entry to the writer (our service writes
 * them in batches); a writer without batches writes a post's entry just after the post, with
 * these statements, as the trigger did before.
 */

/** One row when the schema leaves new posts' entries to the writer, none when the trigger writes them. */
export const DEFERS_SEARCH_INDEX =
  "SELECT 1 FROM pragma_table_info('post_search') WHERE name = 'indexed'";

/** A post's entry, from the text the index reads, then its mark; each takes the post's id. */
export const INDEX_ONE_POST = [
  'INSERT INTO post_search_fts (rowid, title, content) ' +
    'SELECT t.doc, t.title, t.content FROM post_search s JOIN post_search_text t ON t.doc = s.doc ' +
    'WHERE s.post_id = ? AND s.indexed = 0',
  'UPDATE post_search SET indexed = 1 WHERE post_id = ?',
];
