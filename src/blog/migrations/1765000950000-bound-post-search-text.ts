import { MigrationInterface, QueryRunner } from 'typeorm';

import { refreshFunctionBody, searchDocument } from './1765000100000-create-post-search';
import { liftStatementTimeout } from './postgres-statements';

/**
 * The search index reads the first 5,000 characters of a post's content (and its whole title),
 * on both databases, so that the work of finding, ranking and marking a post is bounded whatever
 * it holds: a post may run to 50,000 characters, and 110 posts repeating 16 short words cost a
 * search 1.1 s on SQLite and 10 s on PostgreSQL. The length is SEARCHED_CONTENT_LENGTH in
 * posts/post-search-text.ts, which the snippets read too; it is written out here, as it was
 * when this ran: another length needs a migration of its own.
 *
 * SQLite: the view that FTS5 reads the text through cuts the content (`substr` counts
 * characters), and so do the triggers that give FTS5 the text an entry was made from, to forget
 * it; then the index is made again from the view. The rows that waited for their entry (see the
 * migration 1765000900000) are in it now.
 *
 * PostgreSQL: the trigger makes the document of the content's first characters (`left` counts
 * characters too), and the documents of the longer posts are made again.
 *
 * Reverted, both read the whole content again, and the index is made again from it.
 */
const LENGTH = 5_000;

const cut = (content: string) => `substr(${content}, 1, ${LENGTH})`;
const whole = (content: string) => content;

/** SQLite: the view and the triggers that read a post's content, with `read` around it. */
const sqliteReading = (read: (content: string) => string) => [
  'DROP VIEW post_search_text',
  'CREATE VIEW post_search_text AS SELECT s.doc, coalesce(s.title_folded, p.title) AS title, ' +
    `${read('coalesce(s.content_folded, p.content)')} AS content ` +
    'FROM post_search s JOIN posts p ON p.id = s.post_id',
  'DROP TRIGGER post_search_update',
  `CREATE TRIGGER post_search_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title),
        ${read('coalesce(content_folded, old.content)')}
      FROM post_search WHERE post_id = old.id AND indexed;
    UPDATE post_search SET title_folded = NULL, content_folded = NULL
      WHERE post_id = new.id AND (title_folded IS NOT NULL OR content_folded IS NOT NULL);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, ${read('new.content')} FROM post_search
      WHERE post_id = new.id AND indexed;
  END`,
  'DROP TRIGGER post_search_delete',
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title),
        ${read('coalesce(content_folded, old.content)')}
      FROM post_search WHERE post_id = old.id AND indexed;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  'DROP TRIGGER post_search_fold',
  `CREATE TRIGGER post_search_fold AFTER UPDATE OF title_folded, content_folded ON post_search
    WHEN new.indexed AND (new.title_folded IS NOT NULL OR new.content_folded IS NOT NULL) BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', old.doc, coalesce(old.title_folded, p.title),
        ${read('coalesce(old.content_folded, p.content)')}
      FROM posts p WHERE p.id = old.post_id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT new.doc, coalesce(new.title_folded, p.title),
        ${read('coalesce(new.content_folded, p.content)')}
      FROM posts p WHERE p.id = new.post_id;
  END`,
  // The index made again from the view, every row of it: none waits for its entry any more.
  'UPDATE post_search SET indexed = 1 WHERE indexed = 0',
  "INSERT INTO post_search_fts (post_search_fts) VALUES ('rebuild')",
];

/** PostgreSQL: the trigger reads the content through `read`, and the longer posts' documents are made again. */
const postgresReading = (read: (content: string) => string) => [
  `CREATE OR REPLACE FUNCTION post_search_refresh() ${refreshFunctionBody(
    searchDocument('NEW.title', read('NEW.content')),
  )}`,
  `UPDATE post_search s SET document = ${searchDocument('p.title', read('p.content'))} ` +
    `FROM posts p WHERE p.id = s.post_id AND char_length(p.content) > ${LENGTH}`,
];

/** Search reads the first 5,000 characters of a post's content, on both databases. */
export class BoundPostSearchText1765000950000 implements MigrationInterface {
  name = 'BoundPostSearchText1765000950000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.run(queryRunner, (content) => `left(${content}, ${LENGTH})`, cut);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.run(queryRunner, whole, whole);
  }

  private async run(
    queryRunner: QueryRunner,
    postgres: (content: string) => string,
    sqlite: (content: string) => string,
  ): Promise<void> {
    const onPostgres = queryRunner.connection.driver.options.type === 'postgres';
    await liftStatementTimeout(queryRunner);
    const statements = onPostgres ? postgresReading(postgres) : sqliteReading(sqlite);
    for (const sql of statements) await queryRunner.query(sql);
  }
}
