import { KeyCount, statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';
import { afterCursor, NEWEST_FIRST, PageParameters } from '../posts/posts.sql';

/** A tag with its number of published posts (a bigint: text on PostgreSQL). */
export interface TagCountRow {
  slug: string;
  count: string | number;
}

/** Where a page of popular tags continues: after this count and slug. */
export interface TagPageParameters {
  first: number;
  afterCount?: number;
  afterSlug?: string;
}

/**
 * Tags by their number of published posts, most first, then by slug: a walk of the index of
 * `tag_counts` (migration 1765001000000), which triggers keep in step with every write. Slugs
 * compare by code point on both databases (SQLite's BINARY; the column's "C" collation on
 * PostgreSQL, whose default collation depends on the server's locale), so that the order and
 * the cursors agree everywhere.
 *
 * A next page is two walks of at most `first` rows each: the rest of the cursor's count, by
 * slug, then the smaller counts. The two orders differ in direction, so one row comparison
 * could not seek to the cursor, and a filter alone would read every tag before it.
 */
const ranked = (where: string) =>
  `SELECT tc.slug AS slug, tc.count AS count FROM tag_counts tc${where} ` +
  'ORDER BY tc.count DESC, tc.slug ASC LIMIT :first';
const popular = statement<TagPageParameters, TagCountRow>(ranked(''));
const tied = ranked(' WHERE tc.count = :afterCount AND tc.slug > :afterSlug');
const fewer = ranked(' WHERE tc.count < :afterCount');
const popularAfter = statement<TagPageParameters, TagCountRow>(
  `SELECT slug, count FROM (${tied}) tied UNION ALL SELECT slug, count FROM (${fewer}) fewer ` +
    'ORDER BY count DESC, slug ASC LIMIT :first',
);

/**
 * A page of each tag's published posts, newest first: the page's ids per tag (a correlated
 * subquery on SQLite, LATERAL on PostgreSQL, each with its LIMIT), then only those rows.
 */
const pagePerTag = (after: boolean) => {
  const ids =
    'SELECT x.id FROM post_tags t JOIN posts x ON x.id = t.post_id ' +
    `WHERE t.slug = a.value AND x.published_at IS NOT NULL${afterCursor(after, 'x')} ` +
    'ORDER BY x.published_at DESC, x.id DESC LIMIT :first';
  const cols = `a.value AS "tag", ${postColumns('p')}`;
  const tags = 'KEYS(:...slugs) a';
  return statement<PageParameters & { slugs: readonly string[] }, PostRow & { tag: string }>(
    {
      sqlite: `SELECT ${cols} FROM ${tags} JOIN posts p ON p.id IN (${ids}) ${NEWEST_FIRST}`,
      postgres: `SELECT ${cols} FROM ${tags} CROSS JOIN LATERAL (${ids}) page JOIN posts p ON p.id = page.id ${NEWEST_FIRST}`,
    },
    { runsLong: true },
  );
};

/** The statements of tags. */
export const tagsSql = {
  /** The tags of each post, in their order. */
  tagsOfPosts: statement<{ postIds: readonly string[] }, { postId: string; slug: string }>(
    'SELECT pt.post_id AS "postId", pt.slug AS slug FROM post_tags pt ' +
      'WHERE pt.post_id IN (:...postIds) ORDER BY pt.post_id, pt.position',
  ),
  /** The number of published posts of each tag, as kept; a tag with none has no row. */
  countPublishedByTags: statement<{ slugs: readonly string[] }, KeyCount>(
    'SELECT tc.slug AS key, tc.count AS count FROM tag_counts tc WHERE tc.slug IN (:...slugs)',
  ),
  pagesByTags: pagePerTag(false),
  pagesByTagsAfter: pagePerTag(true),
  popular,
  popularAfter,
  removeFromPost: statement<{ postId: string }>('DELETE FROM post_tags WHERE post_id = :postId'),
  add: statement<{ postId: string; slug: string; position: number }>(
    'INSERT INTO post_tags (post_id, slug, position) VALUES (:postId, :slug, :position)',
  ),
};
