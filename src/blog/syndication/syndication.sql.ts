import { SqlText, statement } from '../common/sql';
import { postColumns, PostSummaryRow } from '../posts/post.rows';
import { NEWEST_FIRST } from '../posts/posts.sql';
import { tagsSql } from '../tags/tags.sql';

/** A feed item's post, without its content, and its author's name and handle. */
export type FeedItemRow = PostSummaryRow & {
  authorName: string;
  authorHandle: string;
  authorUpdatedAt: Date | string;
};

/** A feed's owner, read by handle. */
export interface FeedAuthorRow {
  id: string;
  name: string;
  handle: string;
}

/** A post of a sitemap page: where it is, and when it last changed. */
export interface SitemapPostRow {
  id: string;
  slug: string;
  publishedAt: Date | string;
  updatedAt: Date | string;
}

/**
 * The rows of the posts whose ids `ids` selects (a subquery ending in `LIMIT :first`), newest
 * first, with their authors: the ids come from an index alone, and only those rows are read.
 */
const itemsOf = <P extends object = object>(ids: SqlText, options: { runsLong?: boolean } = {}) => {
  const select =
    `SELECT ${postColumns('p', { content: false })}, u.name AS "authorName", ` +
    'u.handle AS "authorHandle", u.updated_at AS "authorUpdatedAt" ' +
    'FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id IN ';
  const text = (subquery: string) => `${select}(${subquery}) ${NEWEST_FIRST}`;
  return statement<P & { first: number }, FeedItemRow>(
    typeof ids === 'string'
      ? text(ids)
      : { sqlite: text(ids.sqlite), postgres: text(ids.postgres) },
    options,
  );
};

const newest = (filter: string) =>
  `SELECT x.id FROM posts x WHERE x.published_at IS NOT NULL${filter} ` +
  'ORDER BY x.published_at DESC, x.id DESC LIMIT :first';

/**
 * A tag's newest posts, two ways, since no index orders a tag's posts by publication. Walking
 * the posts newest first and keeping those with the tag reads about `first` × posts ÷ the tag's
 * posts rows: few for a common tag, every post for a rare one. Reading the tag's posts from its
 * index and sorting them reads as many rows as the tag has: few for a rare tag. The service
 * picks by the tag's count (see SyndicationService).
 */
const taggedByWalk = newest(
  ' AND (SELECT 1 FROM post_tags t WHERE t.post_id = x.id AND t.slug = :slug) IS NOT NULL',
);
const bySort = (join: string) =>
  `SELECT x.id FROM post_tags t ${join} posts x ON x.id = t.post_id ` +
  'WHERE t.slug = :slug AND x.published_at IS NOT NULL ' +
  'ORDER BY x.published_at DESC, x.id DESC LIMIT :first';
/** SQLite's CROSS JOIN keeps the tag's index as the outer loop, as this way means. */
const taggedBySort = { sqlite: bySort('CROSS JOIN'), postgres: bySort('JOIN') };

/**
 * The first publication time of each calendar month (UTC) that has a published post, oldest
 * first: one seek of the (published_at, id) index per month, never a scan of the posts.
 */
const monthsOf = (nextMonth: string) =>
  'WITH RECURSIVE months(at) AS (' +
  'SELECT (SELECT x.published_at FROM posts x WHERE x.published_at IS NOT NULL ' +
  'ORDER BY x.published_at LIMIT 1) ' +
  'UNION ALL ' +
  `SELECT (SELECT x.published_at FROM posts x WHERE x.published_at >= ${nextMonth} ` +
  'ORDER BY x.published_at LIMIT 1) FROM months m WHERE m.at IS NOT NULL' +
  ') SELECT m.at AS "firstPublishedAt" FROM months m WHERE m.at IS NOT NULL LIMIT :most';

/** The statements of the feeds and the sitemap. */
export const syndicationSql = {
  /** The newest published posts. */
  newest: itemsOf(newest('')),
  /** An author's newest published posts, along the (author, publishedAt, id) index. */
  newestByAuthor: itemsOf<{ authorId: string }>(newest(' AND x.author_id = :authorId')),
  /**
   * A common tag's newest published posts (see taggedByWalk). Either way reads more than a page
   * (1.6 ms for a tag of 2,000 posts among 100,000), so on SQLite both run on a reader thread.
   */
  newestTaggedByWalk: itemsOf<{ slug: string }>(taggedByWalk, { runsLong: true }),
  /** A rare tag's newest published posts (see taggedBySort). */
  newestTaggedBySort: itemsOf<{ slug: string }>(taggedBySort, { runsLong: true }),
  authorByHandle: statement<{ handle: string }, FeedAuthorRow>(
    'SELECT u.id, u.name, u.handle FROM users u WHERE u.handle = :handle',
  ),
  /** A tag's published posts, as `tag_counts` keeps them; no row for a tag without any. */
  tagCount: statement<{ slug: string }, { count: string | number }>(
    'SELECT tc.count AS count FROM tag_counts tc WHERE tc.slug = :slug',
  ),
  tagsOfPosts: tagsSql.tagsOfPosts,
  months: statement<{ most: number }, { firstPublishedAt: Date | string }>({
    sqlite: monthsOf("date(m.at, 'start of month', '+1 month')"),
    postgres: monthsOf(
      "((date_trunc('month', m.at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC')",
    ),
  }),
  /** The published posts of a time range, oldest first, at most `first`. */
  publishedBetween: statement<{ from: Date; until: Date; first: number }, SitemapPostRow>(
    'SELECT p.id, p.slug, p.published_at AS "publishedAt", p.updated_at AS "updatedAt" ' +
      'FROM posts p WHERE p.published_at >= :from AND p.published_at < :until ' +
      'ORDER BY p.published_at, p.id LIMIT :first',
    { runsLong: true },
  ),
};
