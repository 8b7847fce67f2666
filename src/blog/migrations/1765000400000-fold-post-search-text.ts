import { MigrationInterface, QueryRunner } from 'typeorm';

import { foldedSearchText, PostText } from '../posts/post-search-text';

/**
 * SQLite: the search index reads a post's text in compatibility forms (fullwidth `ｇｒａｐｈ`,
 * the ligature `ﬁ`) as their plain letters, as PostgreSQL's does and as the search query's words
 * are read (NFKC). FTS5's tokenizer has no NFKC, and SQL has none either; so where a post's NFKC
 * form differs from its text, the service writes that form beside the index entry
 * (`post_search.title_folded`, `content_folded`), in the post's own transaction, and the index
 * reads it instead. Elsewhere they are NULL and the index reads the post itself, as before.
 *
 * The triggers keep the index and its text in step whoever writes: a change of the post's text
 * (from the service or from any other client) forgets the entry by the text it was made from,
 * folded or not, clears the folded text and indexes the new text; setting the folded text
 * re-indexes the entry with it. A client other than the service thus leaves compatibility forms
 * as FTS5 reads them, and nothing out of step.
 *
 * PostgreSQL folds the text in its own trigger (migration 1765000100000): nothing to do there.
 */
const SQLITE_UP = [
  'ALTER TABLE post_search ADD COLUMN title_folded text',
  'ALTER TABLE post_search ADD COLUMN content_folded text',
  'DROP VIEW post_search_text',
  'CREATE VIEW post_search_text AS SELECT s.doc, ' +
    'coalesce(s.title_folded, p.title) AS title, coalesce(s.content_folded, p.content) AS content ' +
    'FROM post_search s JOIN posts p ON p.id = s.post_id',
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
  'DROP TRIGGER post_search_delete',
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title), coalesce(content_folded, old.content)
      FROM post_search WHERE post_id = old.id;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  // Clearing the folded text (above) leaves the entry to the trigger that clears it.
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
];

const SQLITE_DOWN = [
  'DROP TRIGGER post_search_fold',
  'DROP TRIGGER post_search_delete',
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, old.title, old.content FROM post_search WHERE post_id = old.id;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  'DROP TRIGGER post_search_update',
  `CREATE TRIGGER post_search_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, old.title, old.content FROM post_search WHERE post_id = old.id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id;
  END`,
  'DROP VIEW post_search_text',
  'CREATE VIEW post_search_text AS SELECT s.doc, p.title, p.content ' +
    'FROM post_search s JOIN posts p ON p.id = s.post_id',
  'ALTER TABLE post_search DROP COLUMN content_folded',
  'ALTER TABLE post_search DROP COLUMN title_folded',
  // The entries of folded text are made again from the posts' own text.
  "INSERT INTO post_search_fts (post_search_fts) VALUES ('rebuild')",
];

/** Only text with a character past ASCII may have another NFKC form. */
const NOT_ASCII = "GLOB '*[^' || char(1) || '-' || char(127) || ']*'";

/** Search on SQLite reads compatibility forms in posts as their plain letters, as PostgreSQL does. */
export class FoldPostSearchText1765000400000 implements MigrationInterface {
  name = 'FoldPostSearchText1765000400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    for (const sql of SQLITE_UP) await queryRunner.query(sql);
    const posts: (PostText & { id: string })[] = await queryRunner.query(
      `SELECT id, title, content FROM posts WHERE title ${NOT_ASCII} OR content ${NOT_ASCII}`,
    );
    for (const post of posts) {
      const folded = foldedSearchText(post);
      if (!folded) continue;
      await queryRunner.query(
        'UPDATE post_search SET title_folded = ?, content_folded = ? WHERE post_id = ?',
        [folded.titleFolded, folded.contentFolded, post.id],
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    for (const sql of SQLITE_DOWN) await queryRunner.query(sql);
  }
}
