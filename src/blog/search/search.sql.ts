import { statement } from '../common/sql';
import { SEARCHED_CONTENT_LENGTH } from '../posts/post-search-text';
import { postColumns, PostRow } from '../posts/post.rows';
import { searchedText } from '../posts/posts.sql';

/**
 * A page of search results. `match` is the query for SQLite's FTS5, `tsquery` the same query
 * for PostgreSQL's to_tsquery: each database reads its own and ignores the other.
 */
export interface SearchPageParameters {
  match: string;
  tsquery: string;
  /** PostgreSQL: the words and phrases to find, any of them, which the rank counts. */
  rankTsquery: string;
  /** PostgreSQL, with short prefixes: `tsquery` without them, and the prefixes. */
  wordsTsquery?: string;
  prefixesTsquery?: string;
  first: number;
  /** How many of the most recently written matches are ranked. */
  rankWindow: number;
  afterRank?: number;
  afterPublishedAt?: Date;
  afterId?: string;
  tags?: readonly string[];
  tagCount?: number;
}

/**
 * A post found, with its rank (higher is more relevant) and the part of its text that the index
 * reads, which its snippet is cut from.
 */
export type SearchRow = PostRow & { rank: number; searchedText: string };

/**
 * The part of a post's text that the index reads (see SEARCHED_CONTENT_LENGTH): `substr` counts
 * characters on both databases, as the index does.
 */
const SEARCHED_TEXT = `substr(${searchedText('p')}, 1, ${SEARCHED_CONTENT_LENGTH}) AS "searchedText"`;

/** Posts that have every one of the tags: the slugs given once each, and their count. */
const WITH_TAGS =
  ' AND s.post_id IN (SELECT t.post_id FROM post_tags t WHERE t.slug IN (:...tags) ' +
  'GROUP BY t.post_id HAVING COUNT(*) = :tagCount)';

/**
 * The published posts that match, with their rank (higher first): the `rankWindow` most
 * recently written of them, so that the work of a page is bounded however many posts match
 * (a common word, a short prefix). `post_search` (see the migration 1765000100000) holds each
 * post's publishedAt beside its index entry, so that drafts are left out, and ties ordered,
 * without reading the posts themselves; only the page's posts are read, at the end.
 *
 * The rank depends on the post and the query alone, never on the other posts, so that a post
 * written between two pages moves no other post and the cursors stay where they were: it counts
 * the query's matches in the title, five times, and in the part of the content that the index
 * reads (see SEARCHED_CONTENT_LENGTH), so the work of ranking a post is bounded too.
 * - SQLite: FTS5's `highlight()` marks each match of the query in a column, and the marks are
 *   counted: `5 × title + content`, a whole number. (FTS5's `bm25()` weighs each word by how
 *   many posts have it, which every write changes.)
 * - PostgreSQL: `ts_rank` of the query's words and phrases, any of them (`|`): each word's
 *   occurrences, weighted by where they are (title 1.0, content 0.2) and counting less and less
 *   as they repeat. With all of them (`&`), ts_rank weighs every pair of occurrences of every
 *   two words, which took 50 ms a post for 16 words repeated over 50,000 characters.
 *
 * Most recently written: on SQLite the highest `doc`, which grows as posts are written, so that
 * FTS5 walks the matches from the newest and stops at the window's end, scoring no others; on
 * PostgreSQL the highest post id, a UUIDv7 that grows with time as `doc` does.
 *
 * On PostgreSQL the best way to the window depends on the words: a common word (or a short
 * prefix) is found fastest by walking the posts from the newest, testing each, until the window
 * is full; a rare word through the GIN index, then sorting its few posts. The planner knows which
 * from the table's statistics (the frequent words and their shares), so the statement is planned
 * for each search's words (`planEachRun`), not once for every search. At 100,000 posts: one
 * common word 12 ms walking against 25 through GIN, a two-letter prefix 2 ms against 700, two
 * rare words 0.4 ms through GIN.
 */
const TSQUERY = "to_tsquery('simple', :tsquery)";
const WEIGHTS = "CAST('{0.1, 0.2, 0.2, 1.0}' AS real[])";
/** SQLite: the matches in column `n` of the index, named `name`: how much longer its marked text is. */
const hits = (n: number, name: string) =>
  `(length(highlight(post_search_fts, ${n}, char(1), '')) - length(post_search_fts.${name}))`;
/**
 * PostgreSQL, a query with short prefixes (see `toTsIndexQuery`): the words through the index of
 * words and the prefixes through the index of prefixes, which one GIN index holds (see the
 * migration 1765000700000), then the whole query on what they find. `ts_match_vq` is `@@`
 * written so that the planner does not hand it to the index, which would gather the prefixes'
 * words again.
 */
const BY_PREFIXES =
  "s.document @@ to_tsquery('simple', :wordsTsquery) AND " +
  "post_search_prefixes(s.document) @@ to_tsquery('simple', :prefixesTsquery) AND " +
  `ts_match_vq(s.document, ${TSQUERY})`;
const matches = (tags: string, prefixes: boolean) => ({
  sqlite:
    `SELECT s.post_id, s.published_at, 5 * ${hits(0, 'title')} + ${hits(1, 'content')} AS rank ` +
    'FROM post_search_fts JOIN post_search s ON s.doc = post_search_fts.rowid ' +
    `WHERE post_search_fts MATCH :match AND s.published_at IS NOT NULL${tags} ` +
    'ORDER BY post_search_fts.rowid DESC LIMIT :rankWindow',
  // Ranked as found: the sort to the window then moves ids, not documents of 2 kB each.
  postgres:
    'SELECT s.post_id, s.published_at, ' +
    `CAST(ts_rank(${WEIGHTS}, s.document, to_tsquery('simple', :rankTsquery)) ` +
    'AS float8) AS rank FROM post_search s ' +
    `WHERE ${prefixes ? BY_PREFIXES : `s.document @@ ${TSQUERY}`} ` +
    `AND s.published_at IS NOT NULL${tags} ORDER BY s.post_id DESC LIMIT :rankWindow`,
});

/** After the cursor's post in the order: lower rank, or the same rank and older. */
const AFTER =
  '(m.rank < :afterRank OR (m.rank = :afterRank AND ' +
  '(m.published_at, m.post_id) < (:afterPublishedAt, :afterId)))';

const ORDER = 'ORDER BY g.rank DESC, g.published_at DESC, g.post_id DESC';

const page = ({
  tags,
  after,
  prefixes = false,
}: {
  tags: boolean;
  after: boolean;
  prefixes?: boolean;
}) => {
  const where = after ? ` WHERE ${AFTER}` : '';
  const text = (matched: string) =>
    `SELECT ${postColumns('p')}, ${SEARCHED_TEXT}, g.rank FROM (` +
    `SELECT m.post_id, m.published_at, m.rank FROM (${matched}) m${where} ` +
    'ORDER BY m.rank DESC, m.published_at DESC, m.post_id DESC LIMIT :first' +
    `) g JOIN posts p ON p.id = g.post_id ${ORDER}`;
  const { sqlite, postgres } = matches(tags ? WITH_TAGS : '', prefixes);
  return statement<SearchPageParameters, SearchRow>(
    { sqlite: text(sqlite), postgres: text(postgres) },
    { planEachRun: true, runsLong: true },
  );
};

/** The statements of search: one page of published posts that match, ranked. */
export const searchSql = {
  page: page({ tags: false, after: false }),
  pageAfter: page({ tags: false, after: true }),
  pageWithTags: page({ tags: true, after: false }),
  pageWithTagsAfter: page({ tags: true, after: true }),
  /** The same four, for a query with short prefixes; SQLite's are the same as above. */
  pageByPrefixes: page({ tags: false, after: false, prefixes: true }),
  pageByPrefixesAfter: page({ tags: false, after: true, prefixes: true }),
  pageByPrefixesWithTags: page({ tags: true, after: false, prefixes: true }),
  pageByPrefixesWithTagsAfter: page({ tags: true, after: true, prefixes: true }),
};
