import { MigrationInterface, QueryRunner, Table } from 'typeorm';

import { liftStatementTimeout } from './postgres-statements';

/**
 * Each tag's number of published posts, kept in step by triggers, so that `popularTags` walks
 * an index (most posts first, then slug) instead of counting every tag of every published post:
 * that count took 2.3 s at 50,000 posts, whatever the page size. A tag with no published post
 * has no row.
 *
 * The triggers catch every write that changes the count, from the service or from anywhere else:
 * a tag added to or removed from a post, a post published or made a draft again, and a post
 * deleted, alone or with its author's account. A post's tags go just before the post does (a
 * BEFORE DELETE trigger), while the post is still there to tell whether it was published: a
 * cascade runs after its parent row is gone, and on PostgreSQL after the parent's own AFTER
 * triggers.
 *
 * Slugs compare by code point on both databases: SQLite's BINARY, and the column's "C" collation
 * on PostgreSQL, as `popularTags` ordered them when it counted (tags/tags.sql.ts).
 */
const POPULAR_INDEX = 'CREATE INDEX "IDX_tag_counts_popular" ON tag_counts (count DESC, slug)';

const BACKFILL =
  'INSERT INTO tag_counts (slug, count) SELECT pt.slug, COUNT(*) FROM post_tags pt ' +
  'JOIN posts p ON p.id = pt.post_id WHERE p.published_at IS NOT NULL GROUP BY pt.slug';

/** True when the post `id` (an expression) exists and is published. */
const sqlitePublished = (id: string) =>
  `(SELECT published_at IS NOT NULL FROM posts WHERE id = ${id})`;

const SQLITE_UP = [
  `CREATE TRIGGER tag_counts_tag_added AFTER INSERT ON post_tags
    WHEN ${sqlitePublished('new.post_id')} BEGIN
    INSERT INTO tag_counts (slug, count) VALUES (new.slug, 1)
      ON CONFLICT (slug) DO UPDATE SET count = count + 1;
  END`,
  `CREATE TRIGGER tag_counts_tag_removed AFTER DELETE ON post_tags
    WHEN ${sqlitePublished('old.post_id')} BEGIN
    UPDATE tag_counts SET count = count - 1 WHERE slug = old.slug;
    DELETE FROM tag_counts WHERE slug = old.slug AND count <= 0;
  END`,
  // The service never changes a tag in place; another client might.
  `CREATE TRIGGER tag_counts_tag_changed AFTER UPDATE OF post_id, slug ON post_tags BEGIN
    UPDATE tag_counts SET count = count - 1
      WHERE slug = old.slug AND ${sqlitePublished('old.post_id')};
    DELETE FROM tag_counts WHERE slug = old.slug AND count <= 0;
    INSERT INTO tag_counts (slug, count) SELECT new.slug, 1 WHERE ${sqlitePublished('new.post_id')}
      ON CONFLICT (slug) DO UPDATE SET count = count + 1;
  END`,
  `CREATE TRIGGER tag_counts_post_published AFTER UPDATE OF published_at ON posts
    WHEN old.published_at IS NULL AND new.published_at IS NOT NULL BEGIN
    INSERT INTO tag_counts (slug, count) SELECT slug, 1 FROM post_tags WHERE post_id = new.id
      ON CONFLICT (slug) DO UPDATE SET count = count + 1;
  END`,
  `CREATE TRIGGER tag_counts_post_unpublished AFTER UPDATE OF published_at ON posts
    WHEN old.published_at IS NOT NULL AND new.published_at IS NULL BEGIN
    UPDATE tag_counts SET count = count - 1
      WHERE slug IN (SELECT slug FROM post_tags WHERE post_id = new.id);
    DELETE FROM tag_counts
      WHERE count <= 0 AND slug IN (SELECT slug FROM post_tags WHERE post_id = new.id);
  END`,
  `CREATE TRIGGER tag_counts_post_deleted BEFORE DELETE ON posts BEGIN
    DELETE FROM post_tags WHERE post_id = old.id;
  END`,
];

const SQLITE_DOWN = [
  'DROP TRIGGER tag_counts_post_deleted',
  'DROP TRIGGER tag_counts_post_unpublished',
  'DROP TRIGGER tag_counts_post_published',
  'DROP TRIGGER tag_counts_tag_changed',
  'DROP TRIGGER tag_counts_tag_removed',
  'DROP TRIGGER tag_counts_tag_added',
];

/**
 * PostgreSQL: writers run at once, and one that changed the counts of tags b and a, in that
 * order, could deadlock with one that changed a and b. So the row triggers only note each change
 * in `tag_count_changes` (no row there is shared, nothing waits), and one deferred trigger adds
 * the transaction's changes up at commit, tag by tag in slug order: every writer takes the rows
 * of `tag_counts` in the same order, and holds them only while it commits. The notes never
 * outlive their transaction (an unlogged table: nothing to write to the WAL for them).
 *
 * A transaction queues one deferred event per note; the first one to fire applies them all, and
 * the setting `blog.tag_counts` (local to the transaction) tells the others that nothing is left.
 */
const POSTGRES_UP = [
  'CREATE UNLOGGED TABLE tag_count_changes ' +
    '(slug varchar(64) COLLATE "C" NOT NULL, delta integer NOT NULL)',
  `CREATE FUNCTION tag_counts_note_tag() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO tag_count_changes (slug, delta)
        SELECT OLD.slug, -1 FROM posts p WHERE p.id = OLD.post_id AND p.published_at IS NOT NULL;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO tag_count_changes (slug, delta)
        SELECT NEW.slug, 1 FROM posts p WHERE p.id = NEW.post_id AND p.published_at IS NOT NULL;
    END IF;
    PERFORM set_config('blog.tag_counts', 'pending', true);
    RETURN NULL;
  END $$`,
  'CREATE TRIGGER tag_counts_note_tag AFTER INSERT OR DELETE OR UPDATE OF post_id, slug ' +
    'ON post_tags FOR EACH ROW EXECUTE FUNCTION tag_counts_note_tag()',
  `CREATE FUNCTION tag_counts_note_publication() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO tag_count_changes (slug, delta)
      SELECT slug, CASE WHEN NEW.published_at IS NULL THEN -1 ELSE 1 END
      FROM post_tags WHERE post_id = NEW.id;
    PERFORM set_config('blog.tag_counts', 'pending', true);
    RETURN NULL;
  END $$`,
  'CREATE TRIGGER tag_counts_note_publication AFTER UPDATE OF published_at ON posts ' +
    'FOR EACH ROW WHEN ((OLD.published_at IS NULL) <> (NEW.published_at IS NULL)) ' +
    'EXECUTE FUNCTION tag_counts_note_publication()',
  `CREATE FUNCTION tag_counts_drop_post_tags() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM post_tags WHERE post_id = OLD.id;
    RETURN OLD;
  END $$`,
  'CREATE TRIGGER tag_counts_drop_post_tags BEFORE DELETE ON posts ' +
    'FOR EACH ROW EXECUTE FUNCTION tag_counts_drop_post_tags()',
  `CREATE FUNCTION tag_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    emptied varchar[];
  BEGIN
    IF current_setting('blog.tag_counts', true) IS DISTINCT FROM 'pending' THEN
      RETURN NULL;
    END IF;
    PERFORM set_config('blog.tag_counts', 'applied', true);
    WITH taken AS (DELETE FROM tag_count_changes RETURNING slug, delta),
      sums AS (
        SELECT slug, sum(delta)::bigint AS delta FROM taken GROUP BY slug HAVING sum(delta) <> 0
      ),
      applied AS (
        INSERT INTO tag_counts (slug, count) SELECT slug, delta FROM sums ORDER BY slug
          ON CONFLICT (slug) DO UPDATE SET count = tag_counts.count + EXCLUDED.count
          RETURNING slug, count
      )
    SELECT array_agg(slug) INTO emptied FROM applied WHERE count <= 0;
    IF emptied IS NOT NULL THEN
      DELETE FROM tag_counts WHERE slug = ANY (emptied) AND count <= 0;
    END IF;
    RETURN NULL;
  END $$`,
  'CREATE CONSTRAINT TRIGGER tag_counts_apply AFTER INSERT ON tag_count_changes ' +
    'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tag_counts_apply()',
];

const POSTGRES_DOWN = [
  'DROP TRIGGER tag_counts_apply ON tag_count_changes',
  'DROP FUNCTION tag_counts_apply()',
  'DROP TRIGGER tag_counts_drop_post_tags ON posts',
  'DROP FUNCTION tag_counts_drop_post_tags()',
  'DROP TRIGGER tag_counts_note_publication ON posts',
  'DROP FUNCTION tag_counts_note_publication()',
  'DROP TRIGGER tag_counts_note_tag ON post_tags',
  'DROP FUNCTION tag_counts_note_tag()',
  'DROP TABLE tag_count_changes',
];

/** The number of published posts of each tag, kept by triggers, for `popularTags`. */
export class CreateTagCounts1765001000000 implements MigrationInterface {
  name = 'CreateTagCounts1765001000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await liftStatementTimeout(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'tag_counts',
        columns: [
          {
            name: 'slug',
            type: 'varchar',
            length: '64',
            isPrimary: true,
            ...(postgres ? { collation: 'C' } : {}),
          },
          // bigint: a popularTags cursor may carry any count of up to 12 digits.
          { name: 'count', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query(POPULAR_INDEX);
    // The triggers first: on PostgreSQL they lock posts and post_tags against writes until the
    // migration commits, so that the counts below miss nothing.
    for (const sql of postgres ? POSTGRES_UP : SQLITE_UP) await queryRunner.query(sql);
    await queryRunner.query(BACKFILL);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    for (const sql of postgres ? POSTGRES_DOWN : SQLITE_DOWN) await queryRunner.query(sql);
    await queryRunner.dropTable('tag_counts');
  }
}
