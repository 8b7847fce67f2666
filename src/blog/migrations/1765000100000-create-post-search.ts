import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';
import { liftStatementTimeout } from './postgres-statements';

const cascadeToPost = new TableForeignKey({
  name: 'FK_post_search_post',
  columnNames: ['post_id'],
  referencedTableName: 'posts',
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * SQLite: an FTS5 index of each post's title and content. FTS5 keys its entries by an integer,
 * which posts (keyed by UUID text) lack, and a table's implicit rowid may change on VACUUM: so
 * `post_search` gives each post a stable integer `doc`, and the index reads the text through
 * a view by `doc` (external content: the text is not stored twice). Triggers on posts keep the
 * index, and the publishedAt kept beside it, in step within the writing statement.
 */
const SQLITE_UP = [
  'CREATE VIEW post_search_text AS SELECT s.doc, p.title, p.content ' +
    'FROM post_search s JOIN posts p ON p.id = s.post_id',
  'CREATE VIRTUAL TABLE post_search_fts USING fts5(title, content, ' +
    "content='post_search_text', content_rowid='doc', " +
    "tokenize='unicode61 remove_diacritics 2', prefix='2 3')",
  'INSERT INTO post_search (post_id, published_at) SELECT id, published_at FROM posts ORDER BY id',
  "INSERT INTO post_search_fts (post_search_fts) VALUES ('rebuild')",
  `CREATE TRIGGER post_search_insert AFTER INSERT ON posts BEGIN
    INSERT INTO post_search (post_id, published_at) VALUES (new.id, new.published_at);
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id;
  END`,
  `CREATE TRIGGER post_search_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, old.title, old.content FROM post_search WHERE post_id = old.id;
    INSERT INTO post_search_fts (rowid, title, content)
      SELECT doc, new.title, new.content FROM post_search WHERE post_id = new.id;
  END`,
  `CREATE TRIGGER post_search_publish AFTER UPDATE OF published_at ON posts BEGIN
    UPDATE post_search SET published_at = new.published_at WHERE post_id = new.id;
  END`,
  // Before the row goes: the index forgets an entry by the text it was made from.
  `CREATE TRIGGER post_search_delete BEFORE DELETE ON posts BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, content)
      SELECT 'delete', doc, old.title, old.content FROM post_search WHERE post_id = old.id;
    DELETE FROM post_search WHERE post_id = old.id;
  END`,
];

const SQLITE_DOWN = [
  'DROP TRIGGER post_search_delete',
  'DROP TRIGGER post_search_publish',
  'DROP TRIGGER post_search_update',
  'DROP TRIGGER post_search_insert',
  'DROP TABLE post_search_fts',
  'DROP VIEW post_search_text',
];

/**
 * PostgreSQL: each post's tsvector ('simple': no stemming and no stop words, as FTS5's
 * unicode61), the title weighted A and the content B, in `post_search` with a GIN index, kept
 * by a trigger (a deleted post's row goes by the foreign key). The table, not a generated column
 * on posts, keeps posts as the entity declares it, so TypeORM sees no drift.
 *
 * The text is folded as the search query's words are (`foldWord` in search/search-query.ts):
 * compatibility forms as their plain letters (NFKC), then without the combining diacritics that
 * FTS5's `remove_diacritics 2` removes, and composed again (NFC), so that a Hangul syllable is
 * not left in pieces; to_tsvector takes the case away. `normalize` needs PostgreSQL 13.
 *
 * ASCII punctuation is then read as spaces: PostgreSQL's parser would otherwise drop `<tags>`
 * and keep `foo-bar`, `x@y.com` or `1.5` as words of their own, which FTS5 splits; so both
 * databases see the same words, those that the search query is parsed into.
 */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const folded = (column: string) =>
  `normalize(regexp_replace(normalize(normalize(${column}, NFKC), NFD), ` +
  `'[\\u0300-\\u036f]', '', 'g'), NFC)`;
const words = (column: string) =>
  `translate(${folded(column)}, '${PUNCTUATION.replace(/'/g, "''")}', ` +
  `'${' '.repeat(PUNCTUATION.length)}')`;
/** PostgreSQL: the document of a title and a content (SQL expressions), as the index holds it. */
export const searchDocument = (title: string, content: string) =>
  `setweight(to_tsvector('simple', ${words(title)}), 'A') || ` +
  `setweight(to_tsvector('simple', ${words(content)}), 'B')`;
const document = (row: string) => searchDocument(`${row}title`, `${row}content`);

/**
 * PostgreSQL: what follows `CREATE FUNCTION post_search_refresh()`, the trigger function that
 * writes a post's row of `post_search`, its document made by `documentOfNew` from `NEW.`.
 */
export const refreshFunctionBody = (documentOfNew: string) =>
  `RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE' AND NEW.title = OLD.title AND NEW.content = OLD.content THEN
      UPDATE post_search SET published_at = NEW.published_at WHERE post_id = NEW.id;
    ELSE
      INSERT INTO post_search (post_id, published_at, document)
        VALUES (NEW.id, NEW.published_at, ${documentOfNew})
        ON CONFLICT (post_id) DO UPDATE
          SET published_at = EXCLUDED.published_at, document = EXCLUDED.document;
    END IF;
    RETURN NULL;
  END $$`;

const POSTGRES_UP = [
  'CREATE INDEX "IDX_post_search_document" ON post_search USING GIN (document)',
  `CREATE FUNCTION post_search_refresh() ${refreshFunctionBody(document('NEW.'))}`,
  'CREATE TRIGGER post_search_refresh AFTER INSERT OR UPDATE OF title, content, published_at ' +
    'ON posts FOR EACH ROW EXECUTE FUNCTION post_search_refresh()',
  'INSERT INTO post_search (post_id, published_at, document) ' +
    `SELECT id, published_at, ${document('')} FROM posts`,
];

const POSTGRES_DOWN = [
  'DROP TRIGGER post_search_refresh ON posts',
  'DROP FUNCTION post_search_refresh()',
];

/** Full-text search of posts: FTS5 on SQLite, tsvector with GIN on PostgreSQL. */
export class CreatePostSearch1765000100000 implements MigrationInterface {
  name = 'CreatePostSearch1765000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await liftStatementTimeout(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'post_search',
        columns: postgres
          ? [
              idColumn('post_id', { isPrimary: true }),
              timestampColumn(queryRunner, 'published_at', { isNullable: true }),
              { name: 'document', type: 'tsvector' },
            ]
          : [
              // AUTOINCREMENT: a deleted post's number is never given to another.
              {
                name: 'doc',
                type: 'integer',
                isPrimary: true,
                isGenerated: true,
                generationStrategy: 'increment',
              },
              idColumn('post_id'),
              timestampColumn(queryRunner, 'published_at', { isNullable: true }),
            ],
        foreignKeys: [cascadeToPost],
        indices: postgres
          ? []
          : [
              new TableIndex({
                name: 'UQ_post_search_post',
                columnNames: ['post_id'],
                isUnique: true,
              }),
            ],
      }),
    );
    for (const sql of postgres ? POSTGRES_UP : SQLITE_UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    for (const sql of postgres ? POSTGRES_DOWN : SQLITE_DOWN) await queryRunner.query(sql);
    await queryRunner.dropTable('post_search');
  }
}
