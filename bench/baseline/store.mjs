/**
 * The baseline's data access: better-sqlite3 prepared statements with the SQL our service's
 * TypeORM layer sends (same statements, same indexes), and per-request DataLoaders that
 * answer many parents with one grouped statement. Parameters are bare `?`, as most code
 * written against better-sqlite3 binds them; the service binds `+?` (see its translate.ts).
 */
import { createRequire } from 'node:module';

import { DEFERS_SEARCH_INDEX, INDEX_ONE_POST } from '../lib/search-index.mjs';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const DataLoader = require('dataloader');
const { v7: uuidv7 } = require('uuid');

const USER_COLUMNS = `"u"."id", "u"."name", "u"."email", "u"."handle", "u"."avatar", "u"."role", "u"."created_at", "u"."updated_at"`;
const POST_COLUMNS = (alias) =>
  [
    'id',
    'title',
    'content',
    'author_id',
    'created_at',
    'updated_at',
    'published_at',
    'slug',
    'word_count',
  ]
    .map((column) => `"${alias}"."${column}"`)
    .join(', ');
const COMMENT_COLUMNS = `"c"."id", "c"."text", "c"."text_html", "c"."created_at", "c"."post_id", "c"."author_id"`;
const NEWEST_FIRST = (alias) => `ORDER BY "${alias}"."published_at" DESC, "${alias}"."id" DESC`;

/** SQLite keeps TypeORM's 'YYYY-MM-DD HH:MM:SS.SSS' UTC text. */
const toDate = (text) => (text === null ? null : new Date(`${text.replace(' ', 'T')}Z`));
const fromDate = (date) => date.toISOString().replace('T', ' ').slice(0, 23);

const toUser = (row) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  handle: row.handle,
  avatar: row.avatar,
  role: row.role,
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at),
});
const toPost = (row) => ({
  id: row.id,
  title: row.title,
  content: row.content,
  authorId: row.author_id,
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at),
  publishedAt: toDate(row.published_at),
  slug: row.slug,
  wordCount: row.word_count ?? 0,
});
const toComment = (row) => ({
  id: row.id,
  text: row.text,
  textHtml: row.text_html ?? '',
  createdAt: toDate(row.created_at),
  postId: row.post_id,
  authorId: row.author_id,
});

const marks = (n) => new Array(n).fill('?').join(', ');

export class Store {
  constructor(path, { logStatements = false } = {}) {
    this.db = new Database(path, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.statements = new Map();
    this.logStatements = logStatements;
    /**
     * Whether the schema leaves a new post's search index entry to the writer (our service
     * writes them in batches, see the migration 1765000900000); the baselines then write it in
     * the post's own transaction, as the schema's trigger did for them before, so that their
     * work per post is what it was and their posts are found by a search as ours are.
     */
    this.indexesPosts = !!this.db.prepare(DEFERS_SEARCH_INDEX).get();
    this.insertPost = this.db.transaction((values) => {
      this.run(
        `INSERT INTO "posts"("id", "title", "content", "author_id", "created_at", "updated_at", "published_at") VALUES (?, ?, ?, ?, ?, ?, ?)`,
        values,
      );
      if (!this.indexesPosts) return;
      for (const sql of INDEX_ONE_POST) this.run(sql, [values[0]]);
    });
  }

  /** A cached prepared statement per SQL text (IN lists give one text per list length). */
  prepare(sql) {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    if (this.logStatements) console.log(`query: ${sql}`);
    return statement;
  }

  all(sql, params) {
    return this.prepare(sql).all(params);
  }

  get(sql, params) {
    return this.prepare(sql).get(params);
  }

  run(sql, params) {
    return this.prepare(sql).run(params);
  }

  userById(id) {
    const row = this.get(`SELECT ${USER_COLUMNS} FROM "users" "u" WHERE "u"."id" = ? LIMIT 1`, [
      id,
    ]);
    return row ? toUser(row) : null;
  }

  usersByIds(ids) {
    return this.all(
      `SELECT ${USER_COLUMNS} FROM "users" "u" WHERE "u"."id" IN (${marks(ids.length)})`,
      ids,
    ).map(toUser);
  }

  listUsers({ first, after }) {
    const where = after ? `WHERE "u"."id" > ?` : '';
    return this.all(
      `SELECT ${USER_COLUMNS} FROM "users" "u" ${where} ORDER BY "u"."id" ASC LIMIT ${first}`,
      after ? [after] : [],
    ).map(toUser);
  }

  postById(id) {
    const row = this.get(
      `SELECT ${POST_COLUMNS('p')} FROM "posts" "p" WHERE "p"."id" = ? LIMIT 1`,
      [id],
    );
    return row ? toPost(row) : null;
  }

  postsByIds(ids) {
    return this.all(
      `SELECT ${POST_COLUMNS('p')} FROM "posts" "p" WHERE "p"."id" IN (${marks(ids.length)})`,
      ids,
    ).map(toPost);
  }

  /** The post that has or had `slug` (post_slugs keeps them all, as the service's). */
  postBySlug(slug) {
    const row = this.get(
      `SELECT ${POST_COLUMNS('p')} FROM "post_slugs" "s" JOIN "posts" "p" ON "p"."id" = "s"."post_id" WHERE "s"."slug" = ?`,
      [slug],
    );
    return row ? toPost(row) : null;
  }

  /** The rendered content and headings of each post, read only when asked for (the service's). */
  bodiesByIds(ids) {
    return this.all(
      `SELECT "p"."id", "p"."content_html", "p"."toc" FROM "posts" "p" WHERE "p"."id" IN (${marks(ids.length)})`,
      ids,
    ).map((row) => ({
      id: row.id,
      html: row.content_html ?? '',
      toc: JSON.parse(row.toc ?? '[]'),
    }));
  }

  /** The tags of each post, in their order, in one statement (the service's). */
  tagsOfPosts(postIds) {
    return this.all(
      `SELECT "pt"."post_id", "pt"."slug" FROM "post_tags" "pt" WHERE "pt"."post_id" IN (${marks(postIds.length)}) ORDER BY "pt"."post_id", "pt"."position"`,
      postIds,
    );
  }

  /** `"p"."published_at" IS NOT NULL`, after the cursor post when given. */
  publishedWhere(alias, after) {
    if (!after) return { sql: `"${alias}"."published_at" IS NOT NULL`, params: [] };
    const cursor = `(SELECT c.published_at FROM posts c WHERE c.id = ?)`;
    return {
      sql:
        `"${alias}"."published_at" IS NOT NULL AND ("${alias}"."published_at" < ${cursor} ` +
        `OR ("${alias}"."published_at" = ${cursor} AND "${alias}"."id" < ?))`,
      params: [after, after, after],
    };
  }

  listPosts({ first, after }, authorId) {
    const where = this.publishedWhere('p', after);
    const byAuthor = authorId ? ` AND "p"."author_id" = ?` : '';
    return this.all(
      `SELECT ${POST_COLUMNS('p')} FROM "posts" "p" WHERE ${where.sql}${byAuthor} ${NEWEST_FIRST('p')} LIMIT ${first}`,
      authorId ? [...where.params, authorId] : where.params,
    ).map(toPost);
  }

  followsAnyone(userId) {
    return !!this.get(
      `SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "follows" "f" WHERE "f"."follower_id" = ?) LIMIT 1`,
      [userId],
    );
  }

  /** Joins the cursor post `c` and keeps the rows of `alias` that come after it. */
  cursorJoin(alias, after) {
    if (!after) return { from: '', where: '', params: [] };
    return {
      from: ', (SELECT published_at, id FROM posts WHERE id = ?) c',
      where: ` AND (${alias}.published_at < c.published_at OR (${alias}.published_at = c.published_at AND ${alias}.id < c.id))`,
      params: [after],
    };
  }

  /**
   * Published posts by the authors `viewerId` follows and by the viewer, newest first: the
   * same statement as the service's (page ids from the author index, then those rows).
   */
  feed(viewerId, { first, after }) {
    const cursor = this.cursorJoin('x', after);
    const authors =
      '(SELECT CAST(? AS varchar(36)) AS value UNION SELECT f.followee_id FROM follows f WHERE f.follower_id = ?) a';
    return this.all(
      `SELECT ${POST_COLUMNS('p')} FROM posts p WHERE p.id IN (SELECT x.id FROM ${authors}${cursor.from} ` +
        `JOIN posts x ON x.author_id = a.value AND x.published_at IS NOT NULL${cursor.where} ` +
        `ORDER BY x.published_at DESC, x.id DESC LIMIT ?) ${NEWEST_FIRST('p')}`,
      [viewerId, viewerId, ...cursor.params, first],
    ).map(toPost);
  }

  /** The first `first` published posts of each author, in one statement (the service's). */
  postsByAuthors(authorIds, { first, after }) {
    const cursor = this.cursorJoin('x', after);
    const ids =
      `SELECT x.id FROM posts x${cursor.from} WHERE x.author_id = a.value AND x.published_at IS NOT NULL${cursor.where} ` +
      'ORDER BY x.published_at DESC, x.id DESC LIMIT ?';
    return this.all(
      `SELECT ${POST_COLUMNS('p')} FROM (SELECT value FROM json_each(?)) a JOIN posts p ON p.id IN (${ids}) ${NEWEST_FIRST('p')}`,
      [JSON.stringify(authorIds), ...cursor.params, first],
    ).map(toPost);
  }

  /** The first `first` comments (oldest first) of each post, in one statement (the service's). */
  commentsByPosts(postIds, { first, after }) {
    const ids = `SELECT x.id FROM comments x WHERE x.post_id = k.value${after ? ' AND x.id > ?' : ''} ORDER BY x.id LIMIT ?`;
    return this.all(
      `SELECT ${COMMENT_COLUMNS} FROM (SELECT value FROM json_each(?)) k JOIN comments c ON c.id IN (${ids}) ORDER BY c.id`,
      [JSON.stringify(postIds), ...(after ? [after] : []), first],
    ).map(toComment);
  }

  /** COUNT(*) per value of `column` of `table` for `keys`, one grouped statement. */
  countBy(table, column, keys, extra = '') {
    const rows = this.all(
      `SELECT "row"."${column}" AS "key", COUNT(*) AS "count" FROM "${table}" "row" WHERE "row"."${column}" IN (${marks(keys.length)})${extra} GROUP BY "row"."${column}"`,
      keys,
    );
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  likedBy(userId, postIds) {
    const rows = this.all(
      `SELECT "l"."post_id" AS "post_id", "l"."user_id" AS "user_id" FROM "likes" "l" WHERE "l"."user_id" = ? AND "l"."post_id" IN (${marks(postIds.length)})`,
      [userId, ...postIds],
    );
    return new Set(rows.map((row) => row.post_id));
  }

  followedBy(followerId, userIds) {
    const rows = this.all(
      `SELECT "f"."followee_id" AS "followee_id" FROM "follows" "f" WHERE "f"."follower_id" = ? AND "f"."followee_id" IN (${marks(userIds.length)})`,
      [followerId, ...userIds],
    );
    return new Set(rows.map((row) => row.followee_id));
  }

  createPost({ title, content, authorId, publish }) {
    const now = new Date();
    const post = {
      id: uuidv7(),
      title,
      content,
      authorId,
      createdAt: now,
      updatedAt: now,
      publishedAt: publish ? now : null,
    };
    const at = fromDate(now);
    this.insertPost([post.id, title, content, authorId, at, at, publish ? at : null]);
    return post;
  }

  /** Liking twice leaves one like: the primary key ignores the repeat (the service's statement). */
  like(postId, userId) {
    this.run(
      `INSERT INTO "likes"("post_id", "user_id", "created_at") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
      [postId, userId, fromDate(new Date())],
    );
  }

  unlike(postId, userId) {
    this.run(`DELETE FROM "likes" WHERE "post_id" = ? AND "user_id" = ?`, [postId, userId]);
  }
}

const byKeys = (keys, rows) => {
  const index = new Map(rows.map((row) => [row.id, row]));
  return keys.map((key) => index.get(key) ?? null);
};

const groupBy = (keys, rows, keyOf) => {
  const groups = new Map(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key));
};

/** One DataLoader per page argument, shared by the parents that ask for the same page. */
function pagedLoaders(load) {
  const loaders = new Map();
  return (page) => {
    const key = `${page.first}:${page.after ?? ''}`;
    if (!loaders.has(key))
      loaders.set(key, new DataLoader((keys) => Promise.resolve(load(keys, page))));
    return loaders.get(key);
  };
}

const counting = (load) =>
  new DataLoader(async (keys) => {
    const counts = load(keys);
    return keys.map((key) => counts.get(key) ?? 0);
  });

/** The DataLoaders of one request. */
export function createLoaders(store, viewer) {
  const flags = (load) =>
    new DataLoader(async (keys) => {
      if (!viewer) return keys.map(() => false);
      const yes = load(viewer.id, keys);
      return keys.map((key) => yes.has(key));
    });
  const loaders = {
    userById: new DataLoader(async (ids) => byKeys(ids, store.usersByIds(ids))),
    postById: new DataLoader(async (ids) => byKeys(ids, store.postsByIds(ids))),
    bodyById: new DataLoader(async (ids) => byKeys(ids, store.bodiesByIds(ids))),
    tagsByPost: new DataLoader(async (ids) =>
      groupBy(ids, store.tagsOfPosts(ids), (t) => t.post_id).map((tags) => tags.map((t) => t.slug)),
    ),
    postsByAuthor: pagedLoaders((ids, page) =>
      groupBy(ids, page.first === 0 ? [] : store.postsByAuthors(ids, page), (p) => p.authorId),
    ),
    commentsByPost: pagedLoaders((ids, page) =>
      groupBy(ids, page.first === 0 ? [] : store.commentsByPosts(ids, page), (c) => c.postId),
    ),
    postsCount: counting((ids) =>
      store.countBy('posts', 'author_id', ids, ` AND "row"."published_at" IS NOT NULL`),
    ),
    commentsCount: counting((ids) => store.countBy('comments', 'post_id', ids)),
    likesCount: counting((ids) => store.countBy('likes', 'post_id', ids)),
    followersCount: counting((ids) => store.countBy('follows', 'followee_id', ids)),
    followingCount: counting((ids) => store.countBy('follows', 'follower_id', ids)),
    likedByViewer: flags((viewerId, ids) => store.likedBy(viewerId, ids)),
    followedByViewer: flags((viewerId, ids) => store.followedBy(viewerId, ids)),
  };
  if (viewer) loaders.userById.prime(viewer.id, viewer);
  return loaders;
}
