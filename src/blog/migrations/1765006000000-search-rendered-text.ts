import { MigrationInterface, QueryRunner } from 'typeorm';

import {
  refreshFunctionBody as markdownRefreshBody,
  searchDocument,
} from './1765000100000-create-post-search';
import { liftStatementTimeout } from './postgres-statements';
import { foldedText } from '../posts/post-search-text';

/**
 * Search reads a post's rendered plain text (`content_text`, migration 1765005000000), not its
 * Markdown: a link's address, an image's or `**` are no words of the post, and a snippet shows
 * none of them. A post without a text, such as one another client wrote, is read by its Markdown,
 * as before: `coalesce(content_text, content)`, cut to its first 5,000 characters
 * (SEARCHED_CONTENT_LENGTH, written out here as it was when this ran). A client that writes a
 * post's `content` itself writes its `content_text` too, or sets it NULL: search reads the text as
 * stored.
 *
 * SQLite: the folded text beside the index entries (migration 1765000400000) is made again from
 * the text, in JS (NFKC), for the posts whose text has a character past ASCII. The view that FTS5
 * reads, and the triggers that give it the text an entry was made from, read the text, and a
 * change of `content_text` alone indexes the post again too. Then the index is made again from
 * the view, with the rows that waited for their entry (migration 1765000900000). The triggers go
 * first, so that folding again writes nothing to an index about to be made again.
 *
 * PostgreSQL: the trigger makes the document of the text, also on a change of `content_text`
 * alone, and the documents of the posts whose text is not their Markdown are made again.
 *
 * Reverted, both read the Markdown again, as the migration 1765000950000 left them, and the index
 * is made again from it.
 *
 * At 100,000 posts of 2 kB of Markdown on a busy 2-core machine: 14 s on SQLite, nearly all of it
 * FTS5's rebuild; 59 s on PostgreSQL, where the documents were made in 145 s by the expression of
 * the migration 1765000100000 (see {@link searchDocumentFaster}).
 */
const LENGTH = 5_000;

/** The content that search reads, of the row whose columns start with `row` (`new.`, `p.`). */
type Content = (row: string) => string;
const renderedText: Content = (row) => `coalesce(${row}content_text, ${row}content)`;
const markdown: Content = (row) => `${row}content`;

/** The columns of posts whose change indexes a post again, as each way reads the content. */
const TEXT_COLUMNS = 'title, content, content_text';
const MARKDOWN_COLUMNS = 'title, content';

const cut = (text: string) => `substr(${text}, 1, ${LENGTH})`;

const SQLITE_DROPPED = [
  'DROP TRIGGER post_search_fold',
  'DROP TRIGGER post_search_delete',
  'DROP TRIGGER post_search_update',
  'DROP VIEW post_search_text',
];

/** SQLite: the view and the triggers that read `content`, indexing again on a change of `columns`. */
const sqliteReading = (content: Content, columns: string) => [
  'CREATE VIEW post_search_text AS SELECT s.doc, coalesce(s.title_folded, p.title) AS title, ' +
    `${cut(`coalesce(s.content_folded, ${content('p.')})`)} AS content ` +
    'FROM post_search s JOIN posts p ON p.id = s.post_id',
  `CREATE TRIGGER post_search_update AFTER UPDATE OF ${columns} ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title),
        ${cut(`coalesce(content_folded, ${content('old.')})`)}
      FROM post_search WHERE post_id = old.id AND indexed;
    UPDATE post_search SET title_folded = NULL, content_folded = NULL
      WHERE post_id = new.id AND (title_folded IS NOT NULL OR content_folded IS NOT NULL);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, ${cut(content('new.'))} FROM post_search
      WHERE post_id = new.id AND indexed;
  END`,
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, coalesce(title_folded, old.title),
        ${cut(`coalesce(content_folded, ${content('old.')})`)}
      FROM post_search WHERE post_id = old.id AND indexed;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
  `CREATE TRIGGER post_search_fold AFTER UPDATE OF title_folded, content_folded ON post_search
    WHEN new.indexed AND (new.title_folded IS NOT NULL OR new.content_folded IS NOT NULL) BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', old.doc, coalesce(old.title_folded, p.title),
        ${cut(`coalesce(old.content_folded, ${content('p.')})`)}
      FROM posts p WHERE p.id = old.post_id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT new.doc, coalesce(new.title_folded, p.title),
        ${cut(`coalesce(new.content_folded, ${content('p.')})`)}
      FROM posts p WHERE p.id = new.post_id;
  END`,
  // The index made again from the view, every row of it: none waits for its entry any more.
  'UPDATE post_search SET indexed = 1 WHERE indexed = 0',
  "INSERT INTO post_search_fts (post_search_fts) VALUES ('rebuild')",
];

/** SQLite reads and folds this many posts a statement. */
const ROWS_PER_PAGE = 500;

/**
 * Only text with a character past ASCII may have another NFKC form: text whose UTF-8 bytes
 * outnumber its characters. At 100,000 posts this takes 0.4 s, a GLOB for such a character 3.8.
 */
const pastAscii = (text: string) => `length(${text}) <> length(CAST(${text} AS BLOB))`;

/**
 * SQLite: `content_folded` made again from `content`, a page of posts at a time in `doc` order:
 * the NFKC form of the text where it differs from it (see foldedSearchText), else NULL.
 */
async function foldAgain(queryRunner: QueryRunner, content: Content): Promise<void> {
  await queryRunner.query(
    'UPDATE post_search SET content_folded = NULL WHERE content_folded IS NOT NULL',
  );
  let after = 0;
  for (;;) {
    const rows: { doc: number; text: string }[] = await queryRunner.query(
      `SELECT s.doc, ${content('p.')} AS text FROM post_search s JOIN posts p ON p.id = s.post_id ` +
        `WHERE s.doc > ? AND ${pastAscii(content('p.'))} ORDER BY s.doc LIMIT ${ROWS_PER_PAGE}`,
      [after],
    );
    if (rows.length === 0) return;
    const forms: [number, string][] = [];
    for (const { doc, text } of rows) {
      const form = foldedText(text);
      if (form !== null) forms.push([doc, form]);
    }
    if (forms.length > 0) {
      await queryRunner.query(
        'UPDATE post_search SET content_folded = v.column2 ' +
          `FROM (VALUES ${forms.map(() => '(?, ?)').join(', ')}) AS v ` +
          'WHERE post_search.doc = v.column1',
        forms.flat(),
      );
    }
    if (rows.length < ROWS_PER_PAGE) return;
    after = rows[rows.length - 1].doc;
  }
}

/** The 32 characters of ASCII punctuation, ! to /, : to @, [ to ` and { to ~, as a class. */
const PUNCTUATION = '[\\x21-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7e]';

/** PostgreSQL: `text` as `searchDocument` folds it, where it has a character past ASCII. */
const foldedPastAscii = (text: string) =>
  `CASE WHEN ${text} !~ '[^\\x01-\\x7f]' THEN ${text} ELSE ` +
  `normalize(regexp_replace(normalize(normalize(${text}, NFKC), NFD), ` +
  `'[\\u0300-\\u036f]', '', 'g'), NFC) END`;

const wordsOf = (text: string) =>
  `regexp_replace(${foldedPastAscii(text)}, '${PUNCTUATION}', ' ', 'g')`;

/**
 * PostgreSQL: the document of a title and a content (SQL expressions), the same as
 * `searchDocument` of the migration 1765000100000 makes, in a fourth of its time: 77 s for the
 * texts of 100,000 posts (1.7 kB each) went to 21. `translate` took 53 of them, looking each
 * character up in the list of punctuation; a regular expression of the same 32 characters as a
 * class takes 5. A text of ASCII alone is its own NFKC, NFD and NFC form, without a combining
 * mark: only the others are folded. A test holds the two to the same documents.
 */
export const searchDocumentFaster = (title: string, content: string) =>
  `setweight(to_tsvector('simple', ${wordsOf(title)}), 'A') || ` +
  `setweight(to_tsvector('simple', ${wordsOf(content)}), 'B')`;

/**
 * PostgreSQL: what follows `CREATE FUNCTION post_search_refresh()`, as `refreshFunctionBody` of
 * the migration 1765000100000, with the document made again on a change of `content_text` too.
 */
const textRefreshBody = (documentOfNew: string) =>
  `RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE' AND NEW.title = OLD.title AND NEW.content = OLD.content
        AND NEW.content_text IS NOT DISTINCT FROM OLD.content_text THEN
      UPDATE post_search SET published_at = NEW.published_at WHERE post_id = NEW.id;
    ELSE
      INSERT INTO post_search (post_id, published_at, document)
        VALUES (NEW.id, NEW.published_at, ${documentOfNew})
        ON CONFLICT (post_id) DO UPDATE
          SET published_at = EXCLUDED.published_at, document = EXCLUDED.document;
    END IF;
    RETURN NULL;
  END $$`;

const POSTGRES_READING = {
  text: textRefreshBody(
    searchDocumentFaster('NEW.title', `left(${renderedText('NEW.')}, ${LENGTH})`),
  ),
  // As the migration 1765000950000 left it.
  markdown: markdownRefreshBody(
    searchDocument('NEW.title', `left(${markdown('NEW.')}, ${LENGTH})`),
  ),
};

/** PostgreSQL: the trigger and its function, and the documents made again from `content`. */
const postgresReading = (functionBody: string, content: Content, columns: string) => [
  `CREATE OR REPLACE FUNCTION post_search_refresh() ${functionBody}`,
  'DROP TRIGGER post_search_refresh ON posts',
  `CREATE TRIGGER post_search_refresh AFTER INSERT OR UPDATE OF ${columns}, published_at ` +
    'ON posts FOR EACH ROW EXECUTE FUNCTION post_search_refresh()',
  // Only where the text is not the Markdown: a post without a text is read by its Markdown both ways.
  'UPDATE post_search s SET document = ' +
    `${searchDocumentFaster('p.title', `left(${content('p.')}, ${LENGTH})`)} ` +
    'FROM posts p WHERE p.id = s.post_id AND p.content_text <> p.content',
];

/** Search reads a post's rendered plain text, not its Markdown, on both databases. */
export class SearchRenderedText1765006000000 implements MigrationInterface {
  name = 'SearchRenderedText1765006000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.run(queryRunner, renderedText, TEXT_COLUMNS, POSTGRES_READING.text);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.run(queryRunner, markdown, MARKDOWN_COLUMNS, POSTGRES_READING.markdown);
  }

  private async run(
    queryRunner: QueryRunner,
    content: Content,
    columns: string,
    functionBody: string,
  ): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await liftStatementTimeout(queryRunner);
      for (const sql of postgresReading(functionBody, content, columns)) {
        await queryRunner.query(sql);
      }
      return;
    }
    for (const sql of SQLITE_DROPPED) await queryRunner.query(sql);
    await foldAgain(queryRunner, content);
    for (const sql of sqliteReading(content, columns)) await queryRunner.query(sql);
  }
}
