import { MigrationInterface, QueryRunner } from 'typeorm';

import { runOnPostgres } from './postgres-statements';

/**
 * PostgreSQL: a search reads its candidates' `document` (a `tsvector` of about 2 kB for a post
 * of 200 words) to test and rank each one, and reads them from the newest for a common word.
 * With the default storage nearly every document was moved out of the row, uncompressed (a
 * tsvector of positions does not compress by the 25 % that pglz asks for), so each candidate cost
 * a lookup in the TOAST table's index and two chunks: 11,000 buffer reads for a page of one
 * common word at 100,000 posts, two thirds of that search's time. Rows now keep their
 * document inline up to PostgreSQL's page limit (`toast_tuple_target` 8160, storage MAIN: a
 * larger one is compressed first, and moved out only if it still does not fit), and the table is
 * rewritten once so that the documents already there move in. The table's size is about the same:
 * what the TOAST table held is now in the rows.
 *
 * SQLite's index (FTS5) reads the posts' own text: nothing to do there.
 */
const POSTGRES_UP = [
  'ALTER TABLE post_search SET (toast_tuple_target = 8160)',
  'ALTER TABLE post_search ALTER COLUMN document SET STORAGE MAIN',
  // A USING expression rewrites the table: each document is stored anew, by the rules above.
  "ALTER TABLE post_search ALTER COLUMN document TYPE tsvector USING document || ''::tsvector",
];

const POSTGRES_DOWN = [
  'ALTER TABLE post_search RESET (toast_tuple_target)',
  'ALTER TABLE post_search ALTER COLUMN document SET STORAGE EXTENDED',
  "ALTER TABLE post_search ALTER COLUMN document TYPE tsvector USING document || ''::tsvector",
];

/** PostgreSQL's search documents in their rows. */
export class KeepPostSearchInline1765000500000 implements MigrationInterface {
  name = 'KeepPostSearchInline1765000500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await runOnPostgres(queryRunner, POSTGRES_UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await runOnPostgres(queryRunner, POSTGRES_DOWN);
  }
}
