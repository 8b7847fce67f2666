import { statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';

/**
 * A page of search results. `match` is the query for SQLite's FTS5, `tsquery` the same query
 * for PostgreSQL's to_tsquery: each database reads its own and ignores the other.
 */
export interface SearchPageParameters {
  match: string;
  tsquery: string;
  first: number;
  afterRank?: number;
  afterPublishedAt?: Date;
  afterId?: string;
  tags?: readonly string[];
  tagCount?: number;
}

/** A post found, with its rank: higher is more relevant. */
export type SearchRow = PostRow & { rank: number };

/**
 * The published posts that match, with their rank (higher first). `post_search` (see the
 * migration 1765000100000) holds each post's publishedAt beside its index entry, so that drafts
 * are left out, and ties ordered, without reading the posts themselves; only the page's posts
 * are read, at the end. The title weighs five times the content on both databases.
 *
 * On PostgreSQL the tsquery is a subquery, which the planner cannot look into: with the query's
 * text in view, it reckons a common word's share of the posts and scans the whole table, reading
 * every post's document (most are out of line) to test it, about 3 times slower than the GIN
 * index, which finds the posts without reading a document.
 */
const TSQUERY = "(SELECT to_tsquery('simple', :tsquery))";
const MATCHES = {
  sqlite:
    'SELECT s.post_id, s.published_at, -bm25(post_search_fts, 5.0, 1.0) AS rank ' +
    'FROM post_search_fts JOIN post_search s ON s.doc = post_search_fts.rowid ' +
    'WHERE post_search_fts MATCH :match AND s.published_at IS NOT NULL',
  postgres:
    "SELECT s.post_id, s.published_at, CAST(ts_rank(CAST('{0.1, 0.2, 0.2, 1.0}' AS real[]), " +
    `s.document, ${TSQUERY}) AS float8) AS rank ` +
    `FROM post_search s WHERE s.document @@ ${TSQUERY} AND s.published_at IS NOT NULL`,
};

/** Posts that have every one of the tags: the slugs given once each, and their count. */
const WITH_TAGS =
  'm.post_id IN (SELECT t.post_id FROM post_tags t WHERE t.slug IN (:...tags) ' +
  'GROUP BY t.post_id HAVING COUNT(*) = :tagCount)';

/** After the cursor's post in the order: lower rank, or the same rank and older. */
const AFTER =
  '(m.rank < :afterRank OR (m.rank = :afterRank AND ' +
  '(m.published_at, m.post_id) < (:afterPublishedAt, :afterId)))';

const ORDER = 'ORDER BY g.rank DESC, g.published_at DESC, g.post_id DESC';

const page = (...filters: string[]) => {
  const where = filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : '';
  const text = (matches: string) =>
    `SELECT ${postColumns('p')}, g.rank FROM (` +
    `SELECT m.post_id, m.published_at, m.rank FROM (${matches}) m${where} ` +
    'ORDER BY m.rank DESC, m.published_at DESC, m.post_id DESC LIMIT :first' +
    `) g JOIN posts p ON p.id = g.post_id ${ORDER}`;
  return statement<SearchPageParameters, SearchRow>({
    sqlite: text(MATCHES.sqlite),
    postgres: text(MATCHES.postgres),
  });
};

/** The statements of search: one page of published posts that match, ranked. */
export const searchSql = {
  page: page(),
  pageAfter: page(AFTER),
  pageWithTags: page(WITH_TAGS),
  pageWithTagsAfter: page(WITH_TAGS, AFTER),
};
