import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SQLite: a new post's entry in the search index is written later, in a batch of posts, rather
 * than in the post's own transaction. FTS5 writes what a transaction indexed as a segment of its
 * own when the transaction commits, and merges segments as they pile up: for a post of a few
 * hundred characters that was 0.21 of the 0.33 ms that the statements of `createPost` took,
 * whereas a batch of 100 posts costs 0.04 ms a post.
 *
 * The trigger on a new post now only adds its `post_search` row, marked `indexed = 0`; the
 * service indexes such rows a few milliseconds later, and before any search reads the index,
 * so that a search answers as it did when each post was indexed as it was written (see
 * posts/post-search-index.ts). An entry that is not written yet is neither forgotten when its post
 * changes or goes, nor re-made when its text is folded: the batch indexes the text as it is then.
 * A post written by another client (the sqlite3 shell) is left to be indexed the same way.
 *
 * Reverted, the rows not indexed yet are indexed first, and the triggers index every post again
 * in its own transaction.
 *
 * PostgreSQL updates its index (GIN, with its own list of pending entries) in the post's
 * transaction: nothing to do there.
 */
const SQLITE_UP = [
  'ALTER TABLE post_search ADD COLUMN indexed boolean NOT NULL DEFAULT (1)',
  'CREATE INDEX "IDX_post_search_unindexed" ON post_search (doc) WHERE indexed = 0',
  'DROP TRIGGER post_search_insert',
  `CREATE TRIGGER post_search_insert AFTER INSERT ON posts BEGIN
    INSERT INTO post_search (post_id, published_at, indexed) VALUES (new.id, new.published_at, 0);
  END`,
  'DROP TRIGGER post_search_update',
  `CREATE TRIGGER post_search_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title), coalesce(content_folded, old.content)
      FROM post_search WHERE post_id = old.id AND indexed;
    UPDATE post_search SET title_folded = NULL, content_folded = NULL
      WHERE post_id = new.id AND (title_folded IS NOT NULL OR content_folded IS NOT NULL);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id AND indexed;
  END`,
  'DROP TRIGGER post_search_delete',
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title), coalesce(content_folded, old.content)
      FROM post_search WHERE post_id = old.id AND indexed;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  'DROP TRIGGER post_search_fold',
  `CREATE TRIGGER post_search_fold AFTER UPDATE OF title_folded, content_folded ON post_search
    WHEN new.indexed AND (new.title_folded IS NOT NULL OR new.content_folded IS NOT NULL) BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', old.doc, coalesce(old.title_folded, p.title),
        coalesce(old.content_folded, p.content)
      FROM posts p WHERE p.id = old.post_id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT new.doc, coalesce(new.title_folded, p.title), coalesce(new.content_folded, p.content)
      FROM posts p WHERE p.id = new.post_id;
  END`,
];

const SQLITE_DOWN = [
  'INSERT INTO post_search_fts (rowid, title, content) ' +
    'SELECT t.doc, t.title, t.content FROM post_search s JOIN post_search_text t ON t.doc = s.doc ' +
    'WHERE s.indexed = 0 ORDER BY s.doc',
  'DROP TRIGGER post_search_fold',
  `CREATE TRIGGER post_search_fold AFTER UPDATE OF title_folded, content_folded ON post_search
    WHEN new.title_folded IS NOT NULL OR new.content_folded IS NOT NULL BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', old.doc, coalesce(old.title_folded, p.title),
        coalesce(old.content_folded, p.content)
      FROM posts p WHERE p.id = old.post_id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT new.doc, coalesce(new.title_folded, p.title), coalesce(new.content_folded, p.content)
      FROM posts p WHERE p.id = new.post_id;
  END`,
  'DROP TRIGGER post_search_delete',
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title), coalesce(content_folded, old.content)
      FROM post_search WHERE post_id = old.id;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  'DROP TRIGGER post_search_update',
  `CREATE TRIGGER post_search_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title), coalesce(content_folded, old.content)
      FROM post_search WHERE post_id = old.id;
    UPDATE post_search SET title_folded = NULL, content_folded = NULL
      WHERE post_id = new.id AND (title_folded IS NOT NULL OR content_folded IS NOT NULL);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id;
  END`,
  'DROP TRIGGER post_search_insert',
  `CREATE TRIGGER post_search_insert AFTER INSERT ON posts BEGIN
    INSERT INTO post_search (post_id, published_at) VALUES (new.id, new.published_at);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id;
  END`,
  'DROP INDEX "IDX_post_search_unindexed"',
  'ALTER TABLE post_search DROP COLUMN indexed',
];

/** SQLite indexes new posts for search in batches, each before the next search reads the index. */
export class DeferPostSearchIndexing1765000900000 implements MigrationInterface {
  name = 'DeferPostSearchIndexing1765000900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    for (const sql of SQLITE_UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    for (const sql of SQLITE_DOWN) await queryRunner.query(sql);
  }
}
