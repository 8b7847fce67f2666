import { PostReviewState } from './post-review';
import { FoldedSearchText, PostText } from './post-search-text';
import { postColumns, PostRow, PostSummaryRow } from './post.rows';
import { KeyCount, statement } from '../common/sql';
import { AUTHOR_COLUMNS, AuthorRow } from '../users/user.rows';

/** A new post's row. */
export interface PostInsert {
  id: string;
  title: string;
  content: string;
  authorId: string;
  createdAt: Date;
  publishedAt: Date | null;
  /** Null until the post's slug is claimed, in the same transaction. */
  slug: string | null;
  scheduledAt: Date | null;
  excerpt: string;
  customExcerpt: string | null;
  contentHtml: string;
  contentText: string;
  toc: string;
  wordCount: number;
  coverUrl: string | null;
  coverImageId: string | null;
  coverAlt: string | null;
  coverCaption: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  seoCanonicalUrl: string | null;
}

/** An edit of a post: see `postsSql.update`. */
export interface PostUpdate {
  id: string;
  title: string | null;
  content: string | null;
  contentHtml: string | null;
  contentText: string | null;
  toc: string | null;
  wordCount: number | null;
  excerpt: string | null;
  setExcerpt: boolean;
  customExcerpt: string | null;
  setCover: boolean;
  coverUrl: string | null;
  coverImageId: string | null;
  coverAlt: string | null;
  coverCaption: string | null;
  setSeo: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  seoCanonicalUrl: string | null;
  updatedAt: Date;
}

/** A post's rendered content: see `postsSql.bodies`. */
export interface PostBodyRow {
  id: string;
  contentHtml: string | null;
  contentText: string | null;
  toc: string | null;
}

/** The page of a list: its size, and the post it continues after (see `afterCursor`). */
export interface PageParameters {
  first: number;
  afterPublishedAt?: Date | string;
  afterId?: string;
}

const cols = postColumns('p');
/** The order of every list of published posts, newest first, for a `posts` table aliased `p`. */
export const NEWEST_FIRST = 'ORDER BY p.published_at DESC, p.id DESC';

/**
 * Keeps the rows of `p` that come after the cursor (its publishedAt as stored, and its id).
 * Written as a row value, it bounds the scan of the (…, published_at, id) indexes; the same test
 * as an OR of the two columns makes them read every older row.
 */
export const afterCursor = (after: boolean, p = 'p') =>
  after ? ` AND (${p}.published_at, ${p}.id) < (:afterPublishedAt, :afterId)` : '';

const published = (filter: string, after: boolean) =>
  `SELECT ${cols} FROM posts p ` +
  `WHERE p.published_at IS NOT NULL${filter}${afterCursor(after)} ${NEWEST_FIRST} LIMIT :first`;

/**
 * A page of each author's posts. The page's ids come from the (author, publishedAt, id) index
 * alone, with a LIMIT per author (a correlated subquery on SQLite, LATERAL on PostgreSQL), and
 * only those rows are read: the cost follows authors × page size, not how many posts they have.
 * Without `content`, the rows leave it out.
 */
const pagePerAuthor = <R extends PostSummaryRow = PostRow>(after: boolean, content = true) => {
  const columns = postColumns('p', { content });
  const ids =
    'SELECT x.id FROM posts x ' +
    `WHERE x.author_id = a.value AND x.published_at IS NOT NULL${afterCursor(after, 'x')} ` +
    'ORDER BY x.published_at DESC, x.id DESC LIMIT :first';
  const authors = 'KEYS(:...authorIds) a';
  return statement<PageParameters & { authorIds: readonly string[] }, R>({
    sqlite: `SELECT ${columns} FROM ${authors} JOIN posts p ON p.id IN (${ids}) ${NEWEST_FIRST}`,
    postgres: `SELECT ${columns} FROM ${authors} CROSS JOIN LATERAL (${ids}) t JOIN posts p ON p.id = t.id ${NEWEST_FIRST}`,
  });
};

const byAuthor = ' AND p.author_id = :authorId';

/** The tags a list filters by: a post has all of them (slugs, distinct). */
export interface TagFilterParameters {
  tags: readonly string[];
  tagCount: number;
  authorId?: string;
}

/** Keeps the posts of `p` that have every tag of `:tags` (a post has a slug once). */
export const withAllTags =
  ' AND p.id IN (SELECT pt.post_id FROM post_tags pt WHERE pt.slug IN (:...tags) ' +
  'GROUP BY pt.post_id HAVING COUNT(*) = :tagCount)';

const tagged = (filter: string, after: boolean) =>
  statement<PageParameters & TagFilterParameters, PostRow>(published(filter + withAllTags, after), {
    runsLong: true,
  });
const countTagged = (filter: string) =>
  statement<TagFilterParameters, { count: string | number }>(
    `SELECT COUNT(*) AS count FROM posts p WHERE p.published_at IS NOT NULL${filter}${withAllTags}`,
    { runsLong: true },
  );

const drafts = (after: boolean) =>
  statement<{ authorId: string; first: number; afterId?: string }, PostRow>(
    `SELECT ${cols} FROM posts p WHERE p.author_id = :authorId AND p.published_at IS NULL` +
      `${after ? ' AND p.id < :afterId' : ''} ORDER BY p.id DESC LIMIT :first`,
  );

/** The start of the scheduler's look for due posts, which runs outside every request. */
export const DUE_POSTS =
  'SELECT p.id, p.author_id AS "authorId" FROM posts p WHERE p.scheduled_at IS NOT NULL';

const DUE_POST =
  'SELECT p.id FROM posts p WHERE p.id = :id AND p.published_at IS NULL ' +
  'AND p.scheduled_at IS NOT NULL AND p.scheduled_at <= :now';

/** Clears a post's review: publishing or scheduling it decides it. */
const END_REVIEW = 'review_state = NULL, review_requested_at = NULL, rejection_reason = NULL';

const AWAITING = `review_state = '${PostReviewState.AWAITING_REVIEW}'`;

const awaitingReview = (after: boolean) =>
  statement<{ first: number; afterRequestedAt?: Date; afterId?: string }, PostRow>(
    `SELECT ${cols} FROM posts p WHERE p.${AWAITING}` +
      (after ? ' AND (p.review_requested_at, p.id) > (:afterRequestedAt, :afterId)' : '') +
      ' ORDER BY p.review_requested_at, p.id LIMIT :first',
  );

const scheduled = (after: boolean) =>
  statement<
    { authorId: string; first: number; afterScheduledAt?: Date; afterId?: string },
    PostRow
  >(
    `SELECT ${cols} FROM posts p WHERE p.author_id = :authorId AND p.published_at IS NULL ` +
      'AND p.scheduled_at IS NOT NULL' +
      (after ? ' AND (p.scheduled_at, p.id) > (:afterScheduledAt, :afterId)' : '') +
      ' ORDER BY p.scheduled_at, p.id LIMIT :first',
  );

/**
 * The text of a post's content that search reads, whole (see PostText), of `posts` aliased
 * `alias`: the plain text rendered from its Markdown, or the Markdown where it has none
 * (migration 1765006000000).
 */
export const searchedText = (alias?: string) => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `coalesce(${column('content_text')}, ${column('content')})`;
};

/** The statements of posts. */
export const postsSql = {
  byId: statement<{ id: string }, PostRow>(`SELECT ${cols} FROM posts p WHERE p.id = :id`),
  /** A post and its author in one round trip, for a post whose selection asks for the author. */
  byIdWithAuthor: statement<{ id: string }, PostRow & AuthorRow>(
    `SELECT ${cols}, ${AUTHOR_COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = :id`,
  ),
  byIds: statement<{ ids: readonly string[] }, PostRow>(
    `SELECT ${cols} FROM posts p WHERE p.id IN (:...ids)`,
  ),
  publishedAtOf: statement<{ id: string }, { publishedAt: Date | string | null }>(
    'SELECT p.published_at AS "publishedAt" FROM posts p WHERE p.id = :id',
  ),
  published: statement<PageParameters, PostRow>(published('', false)),
  publishedAfter: statement<PageParameters, PostRow>(published('', true)),
  byAuthor: statement<PageParameters & { authorId: string }, PostRow>(published(byAuthor, false)),
  byAuthorAfter: statement<PageParameters & { authorId: string }, PostRow>(
    published(byAuthor, true),
  ),
  tagged: tagged('', false),
  taggedAfter: tagged('', true),
  taggedByAuthor: tagged(byAuthor, false),
  taggedByAuthorAfter: tagged(byAuthor, true),
  pagesByAuthors: pagePerAuthor(false),
  pagesByAuthorsAfter: pagePerAuthor(true),
  summaryPagesByAuthors: pagePerAuthor<PostSummaryRow>(false, false),
  summaryPagesByAuthorsAfter: pagePerAuthor<PostSummaryRow>(true, false),
  drafts: drafts(false),
  draftsAfter: drafts(true),
  countPublished: statement<object, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM posts p WHERE p.published_at IS NOT NULL',
    { runsLong: true },
  ),
  countPublishedBy: statement<{ authorId: string }, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM posts p WHERE p.published_at IS NOT NULL AND p.author_id = :authorId',
    { runsLong: true },
  ),
  countTagged: countTagged(''),
  countTaggedByAuthor: countTagged(byAuthor),
  countPublishedByAuthors: statement<{ authorIds: readonly string[] }, KeyCount>(
    'SELECT p.author_id AS key, COUNT(*) AS count FROM posts p ' +
      'WHERE p.author_id IN (:...authorIds) AND p.published_at IS NOT NULL GROUP BY p.author_id',
  ),
  insert: statement<PostInsert>(
    'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at, ' +
      'slug, scheduled_at, excerpt, custom_excerpt, content_html, content_text, toc, word_count, ' +
      'cover_url, cover_image_id, cover_alt, cover_caption, seo_title, seo_description, ' +
      'seo_canonical_url) ' +
      'VALUES (:id, :title, :content, :authorId, :createdAt, :createdAt, :publishedAt, ' +
      ':slug, :scheduledAt, :excerpt, :customExcerpt, :contentHtml, :contentText, :toc, :wordCount, ' +
      ':coverUrl, :coverImageId, :coverAlt, :coverCaption, :seoTitle, :seoDescription, ' +
      ':seoCanonicalUrl)',
  ),
  /**
   * Changes what an edit gives (a null keeps the stored value; a `set…` flag writes its fields,
   * null included), and answers the title and the text that search reads (see PostText), as
   * stored.
   */
  update: statement<PostUpdate, PostText>(
    'UPDATE posts SET title = COALESCE(:title, title), content = COALESCE(:content, content), ' +
      'content_html = COALESCE(:contentHtml, content_html), ' +
      'content_text = COALESCE(:contentText, content_text), toc = COALESCE(:toc, toc), ' +
      'word_count = COALESCE(:wordCount, word_count), excerpt = COALESCE(:excerpt, excerpt), ' +
      'custom_excerpt = CASE WHEN :setExcerpt THEN :customExcerpt ELSE custom_excerpt END, ' +
      'cover_url = CASE WHEN :setCover THEN :coverUrl ELSE cover_url END, ' +
      'cover_image_id = CASE WHEN :setCover THEN :coverImageId ELSE cover_image_id END, ' +
      'cover_alt = CASE WHEN :setCover THEN :coverAlt ELSE cover_alt END, ' +
      'cover_caption = CASE WHEN :setCover THEN :coverCaption ELSE cover_caption END, ' +
      'seo_title = CASE WHEN :setSeo THEN :seoTitle ELSE seo_title END, ' +
      'seo_description = CASE WHEN :setSeo THEN :seoDescription ELSE seo_description END, ' +
      'seo_canonical_url = CASE WHEN :setSeo THEN :seoCanonicalUrl ELSE seo_canonical_url END, ' +
      `updated_at = :updatedAt WHERE id = :id RETURNING title, ${searchedText()} AS content`,
  ),
  /** The rendered content of posts, read only when a selection asks for it. */
  bodies: statement<{ ids: readonly string[] }, PostBodyRow>(
    'SELECT p.id, p.content_html AS "contentHtml", p.content_text AS "contentText", p.toc ' +
      'FROM posts p WHERE p.id IN (:...ids)',
  ),
  /** Every slug posts have had, their current ones included, newest first. */
  slugsOf: statement<{ ids: readonly string[] }, { postId: string; slug: string }>(
    'SELECT s.post_id AS "postId", s.slug FROM post_slugs s WHERE s.post_id IN (:...ids) ' +
      'ORDER BY s.created_at DESC, s.slug',
  ),
  /** The post that has or had a slug. */
  bySlug: statement<{ slug: string }, PostRow>(
    `SELECT ${cols} FROM post_slugs s JOIN posts p ON p.id = s.post_id WHERE s.slug = :slug`,
  ),
  /** Which of some slugs a post has or had, and whose. */
  slugsTaken: statement<{ slugs: readonly string[] }, { slug: string; postId: string }>(
    'SELECT s.slug, s.post_id AS "postId" FROM post_slugs s WHERE s.slug IN (:...slugs)',
  ),
  /** Claims a slug for a post; changes nothing when another has it. */
  claimSlug: statement<{ slug: string; postId: string; at: Date }>(
    'INSERT INTO post_slugs (slug, post_id, created_at) VALUES (:slug, :postId, :at) ' +
      'ON CONFLICT DO NOTHING',
  ),
  /** Makes a slug the post already had its newest again. */
  renewSlug: statement<{ slug: string; postId: string; at: Date }>(
    'UPDATE post_slugs SET created_at = :at WHERE slug = :slug AND post_id = :postId',
  ),
  setSlug: statement<{ id: string; slug: string }>('UPDATE posts SET slug = :slug WHERE id = :id'),
  /**
   * SQLite: the post's text in the form its search index reads (see foldedSearchText). The
   * index of PostgreSQL folds the text itself, so there the service never sends it.
   */
  foldSearchText: statement<{ id: string } & FoldedSearchText>({
    sqlite:
      'UPDATE post_search SET title_folded = :titleFolded, content_folded = :contentFolded ' +
      'WHERE post_id = :id',
    postgres: 'SELECT 1 WHERE FALSE',
  }),
  /**
   * Publishes a draft, and ends its review; changes nothing when the post is published already.
   */
  publish: statement<{ id: string; at: Date }>(
    'UPDATE posts SET published_at = :at, updated_at = :at, scheduled_at = NULL, ' +
      `${END_REVIEW} WHERE id = :id AND published_at IS NULL`,
  ),
  delete: statement<{ id: string }>('DELETE FROM posts WHERE id = :id'),
  /**
   * Moderation hides a published post: a draft now, leaving every list, search, tags and feeds as
   * unpublishing does, with the time it was published kept to give back.
   */
  hideByModeration: statement<{ id: string; now: Date }>(
    'UPDATE posts SET hidden_at = :now, hidden_published_at = published_at, ' +
      'published_at = NULL, scheduled_at = NULL, updated_at = :now ' +
      'WHERE id = :id AND hidden_at IS NULL AND published_at IS NOT NULL',
  ),
  /** Shows a hidden post again, published at the time it was. */
  restoreFromModeration: statement<{ id: string; now: Date }>(
    'UPDATE posts SET published_at = hidden_published_at, hidden_at = NULL, ' +
      'hidden_published_at = NULL, updated_at = :now WHERE id = :id AND hidden_at IS NOT NULL',
  ),
  /** Locks (a time) or unlocks (null) a post's comments. */
  lockComments: statement<{ id: string; at: Date | null }>(
    'UPDATE posts SET comments_locked_at = :at WHERE id = :id',
  ),
  /** Schedules a draft, which ends its review; changes nothing once it is published. */
  schedule: statement<{ id: string; at: Date; now: Date }>(
    `UPDATE posts SET scheduled_at = :at, updated_at = :now, ${END_REVIEW} ` +
      'WHERE id = :id AND published_at IS NULL',
  ),
  unschedule: statement<{ id: string; now: Date }>(
    'UPDATE posts SET scheduled_at = NULL, updated_at = :now ' +
      'WHERE id = :id AND scheduled_at IS NOT NULL',
  ),
  /** Takes a published post back to a draft. */
  unpublish: statement<{ id: string; now: Date }>(
    'UPDATE posts SET published_at = NULL, scheduled_at = NULL, updated_at = :now ' +
      'WHERE id = :id AND published_at IS NOT NULL',
  ),
  /** The scheduled posts that are due, soonest first, along the (scheduled_at, id) index. */
  due: statement<{ now: Date; first: number }, { id: string; authorId: string }>(
    `${DUE_POSTS} AND p.scheduled_at <= :now ORDER BY p.scheduled_at, p.id LIMIT :first`,
  ),
  /**
   * Claims a due post for this instance: on PostgreSQL its row is locked, and skipped when
   * another instance holds it; SQLite has one writer.
   */
  claimDue: statement<{ id: string; now: Date }, { id: string }>({
    sqlite: DUE_POST,
    postgres: `${DUE_POST} FOR UPDATE SKIP LOCKED`,
  }),
  /** Publishes a claimed post at the time it was scheduled for. */
  publishScheduled: statement<{ id: string; now: Date }>(
    'UPDATE posts SET published_at = scheduled_at, scheduled_at = NULL, updated_at = :now ' +
      'WHERE id = :id AND published_at IS NULL AND scheduled_at IS NOT NULL',
  ),
  /** A page of an author's scheduled posts, soonest first. */
  scheduled: scheduled(false),
  scheduledAfter: scheduled(true),
  countScheduled: statement<{ authorId: string }, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM posts p WHERE p.author_id = :authorId ' +
      'AND p.published_at IS NULL AND p.scheduled_at IS NOT NULL',
  ),
  /**
   * Puts a plain draft (neither published nor scheduled) in the review queue, last; changes
   * nothing when it waits there already.
   */
  submitForReview: statement<{ id: string; now: Date }>(
    `UPDATE posts SET review_state = '${PostReviewState.AWAITING_REVIEW}', ` +
      'review_requested_at = :now, rejection_reason = NULL, updated_at = :now ' +
      'WHERE id = :id AND published_at IS NULL AND scheduled_at IS NULL ' +
      `AND (review_state IS NULL OR review_state <> '${PostReviewState.AWAITING_REVIEW}')`,
  ),
  /** Sends a post of the review queue back to its author with the reason. */
  reject: statement<{ id: string; reason: string; now: Date }>(
    `UPDATE posts SET review_state = '${PostReviewState.REJECTED}', review_requested_at = NULL, ` +
      'rejection_reason = :reason, updated_at = :now ' +
      `WHERE id = :id AND published_at IS NULL AND ${AWAITING}`,
  ),
  /** A page of the review queue, oldest submission first, along the review index. */
  awaitingReview: awaitingReview(false),
  awaitingReviewAfter: awaitingReview(true),
  countAwaitingReview: statement<object, { count: string | number }>(
    `SELECT COUNT(*) AS count FROM posts p WHERE p.${AWAITING}`,
    { runsLong: true },
  ),
};

/** The posts a batch of SQLite's search index writes at most (see PostSearchIndex). */
export const SEARCH_INDEX_BATCH = 500;

/** The posts of a batch of the search index: how many, and the first and last `doc`. */
export interface UnindexedRange {
  count: number;
  first: number | null;
  last: number | null;
}

/**
 * SQLite's search index, written in batches (migration 1765000900000): the oldest posts whose
 * entry is not written yet, then their entries, read through the view that the index reads,
 * and their mark. PostgreSQL indexes each post as it is written, so there the service never
 * sends them.
 */
export const postSearchIndexSql = {
  unindexed: statement<{ batch: number }, UnindexedRange>({
    sqlite:
      'SELECT count(*) AS count, min(doc) AS first, max(doc) AS last ' +
      'FROM (SELECT doc FROM post_search WHERE indexed = 0 ORDER BY doc LIMIT :batch)',
    postgres: 'SELECT 0 AS count, NULL AS first, NULL AS last WHERE FALSE',
  }),
  index: statement<{ first: number; last: number }>({
    sqlite:
      'INSERT INTO post_search_fts (rowid, title, content) ' +
      'SELECT t.doc, t.title, t.content FROM post_search s JOIN post_search_text t ON t.doc = s.doc ' +
      'WHERE s.indexed = 0 AND s.doc BETWEEN :first AND :last ORDER BY s.doc',
    postgres: 'SELECT 1 WHERE FALSE',
  }),
  markIndexed: statement<{ first: number; last: number }>({
    sqlite: 'UPDATE post_search SET indexed = 1 WHERE indexed = 0 AND doc BETWEEN :first AND :last',
    postgres: 'SELECT 1 WHERE FALSE',
  }),
};
