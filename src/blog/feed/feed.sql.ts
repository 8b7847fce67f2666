import { statement } from '../common/sql';
import { postColumns, PostRow } from '../posts/post.rows';
import { afterCursor, NEWEST_FIRST, PageParameters } from '../posts/posts.sql';

const cols = postColumns('p');

/**
 * The feed: the newest posts of the viewer and the authors they follow. The page's ids come from
 * the (author, publishedAt, id) index alone (on PostgreSQL a page per author, merged), and only
 * those rows are read.
 */
const feed = (after: boolean) => {
  const authors =
    '(SELECT CAST(:viewerId AS varchar(36)) AS value UNION ' +
    'SELECT f.followee_id FROM follows f WHERE f.follower_id = :viewerId) a';
  const newest = 'ORDER BY x.published_at DESC, x.id DESC LIMIT :first';
  const keep = `x.published_at IS NOT NULL${afterCursor(after, 'x')}`;
  return statement<PageParameters & { viewerId: string }, PostRow>({
    sqlite:
      `SELECT ${cols} FROM posts p WHERE p.id IN (SELECT x.id FROM ${authors} ` +
      `JOIN posts x ON x.author_id = a.value AND ${keep} ${newest}) ${NEWEST_FIRST}`,
    postgres:
      `SELECT ${cols} FROM posts p WHERE p.id IN (SELECT t.id FROM ${authors} CROSS JOIN LATERAL ` +
      `(SELECT x.id, x.published_at FROM posts x WHERE x.author_id = a.value AND ${keep} ${newest}) t ` +
      `ORDER BY t.published_at DESC, t.id DESC LIMIT :first) ${NEWEST_FIRST}`,
  });
};

/** The statements of the feed: its first page, and a page after a cursor. */
export const feedSql = {
  page: feed(false),
  pageAfter: feed(true),
};
