#!/usr/bin/env node
/**
 * Fills an empty database with a deterministic blog, after creating the schema with the
 * service's own migrations (imported from the production build in dist/).
 *
 *   node bench/generate.mjs --database sqlite:/tmp/blog.sqlite [--scale 0.1] [--seed 42]
 *   node bench/generate.mjs --database postgres://root@127.0.0.1:5432/blog_bench
 *
 * Prints the fixtures (the ids the benchmark operations use) as JSON.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { FULL_SIZES, P1_COMMENTS, P1_TAGS, planBlog, scaleSizes } from './lib/blog-plan.mjs';
import { DEFERS_SEARCH_INDEX, INDEX_ONE_POST } from './lib/search-index.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const COLUMNS = {
  users: [
    'id',
    'name',
    'email',
    'handle',
    'avatar',
    'password_hash',
    'role',
    'created_at',
    'updated_at',
  ],
  posts: [
    'id',
    'title',
    'content',
    'author_id',
    'created_at',
    'updated_at',
    'published_at',
    'slug',
    'excerpt',
    'content_html',
    'content_text',
    'toc',
    'word_count',
  ],
  post_slugs: ['slug', 'post_id', 'created_at'],
  post_tags: ['post_id', 'slug', 'position'],
  comments: ['id', 'post_id', 'author_id', 'text', 'text_html', 'created_at'],
  likes: ['post_id', 'user_id', 'created_at'],
  follows: ['follower_id', 'followee_id', 'created_at'],
};

/** A row object of the plan as column values, with `time` formatting the timestamps. */
const VALUES = {
  users: (u, time) => [
    u.id,
    u.name,
    u.email,
    u.handle,
    u.avatar,
    u.passwordHash,
    'user',
    time(u.createdAt),
    time(u.createdAt),
  ],
  posts: (p, time) => [
    p.id,
    p.title,
    p.content,
    p.authorId,
    time(p.createdAt),
    time(p.createdAt),
    p.publishedAt === null ? null : time(p.publishedAt),
    p.slug,
    p.excerpt,
    p.contentHtml,
    p.contentText,
    p.toc,
    p.wordCount,
  ],
  post_slugs: (s, time) => [s.slug, s.postId, time(s.createdAt)],
  post_tags: (t) => [t.postId, t.slug, t.position],
  comments: (c, time) => [c.id, c.postId, c.authorId, c.text, c.textHtml, time(c.createdAt)],
  likes: (l, time) => [l.postId, l.userId, time(l.createdAt)],
  follows: (f, time) => [f.followerId, f.followeeId, time(f.createdAt)],
};

const TABLES = ['users', 'posts', 'post_slugs', 'post_tags', 'comments', 'likes', 'follows'];

/** TypeORM's text form of a UTC timestamp on SQLite: 'YYYY-MM-DD HH:MM:SS.SSS'. */
export const sqliteTime = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
const isoTime = (ms) => new Date(ms).toISOString();

/** Creates the tables by running the service's migrations from dist/ on `databaseUrl`. */
export async function migrate(databaseUrl) {
  const dataSource = await openDataSource(databaseUrl);
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/** A TypeORM DataSource on `databaseUrl`, as the service's build in dist/ makes it, quiet. */
async function openDataSource(databaseUrl) {
  const { loadDatabaseConfig } = require(join(ROOT, 'dist/src/config/database.config.js'));
  const { buildDataSourceOptions } = require(
    join(ROOT, 'dist/src/database/data-source-options.js'),
  );
  const { DataSource } = require('typeorm');
  const quiet = {
    logQuery() {},
    logQueryError() {},
    logQuerySlow() {},
    logSchemaBuild() {},
    logMigration() {},
    log() {},
  };
  const config = loadDatabaseConfig({ DATABASE_URL: databaseUrl, DATABASE_LOGGING: 'false' });
  const dataSource = new DataSource(buildDataSourceOptions(config, { logger: quiet }));
  await dataSource.initialize();
  return dataSource;
}

/**
 * Puts back, in a copy of a SQLite blog that a baseline serves, the trigger that writes a new
 * post's search index entry in the post's own statement, as it did before the service took to
 * writing them in batches (migration 1765000900000, reverted on the copy): the baselines then do
 * per post the work they did before, and the same as the service did. Nothing to do where the
 * build has no such migration.
 */
export async function indexPostsAsWritten(databaseUrl) {
  const file = join(ROOT, 'dist/src/blog/migrations/1765000900000-defer-post-search-indexing.js');
  if (!existsSync(file)) return;
  const { DeferPostSearchIndexing1765000900000: Migration } = require(file);
  const dataSource = await openDataSource(databaseUrl);
  const runner = dataSource.createQueryRunner();
  try {
    if ((await runner.query(DEFERS_SEARCH_INDEX)).length > 0) await new Migration().down(runner);
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/**
 * Migrates and fills the database at `databaseUrl` (sqlite:<path> or postgres://...), the posts'
 * text written by `text` when given (see planBlog); without `tags`, no post has tags (the
 * interference round tags them its own way).
 * Returns the fixtures (with `p1Slug`, the slug of P1's post) and the row counts.
 */
export async function generate({
  databaseUrl,
  sizes = FULL_SIZES,
  seed = 42,
  text,
  tags = true,
  log = () => {},
}) {
  const started = Date.now();
  await migrate(databaseUrl);
  const plan = planBlog(sizes, seed, text);
  const { fixtures, tables, p1 } = published(plan, { tags });
  const write = databaseUrl.startsWith('sqlite:') ? writeSqlite : writePostgres;
  const counts = await write(databaseUrl, tables, log);
  if (p1.comments < P1_COMMENTS || (tags && p1.tags < P1_TAGS)) {
    log(
      `  (P1's post has ${p1.comments} comments and ${p1.tags} tags: the blog is too small for ${P1_COMMENTS} and ${P1_TAGS})`,
    );
  }
  return {
    fixtures: { ...fixtures, p1Slug: p1.slug },
    counts,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * The rows of a planned blog as the service writes them since migration 1765005000000
 * (publishing, issue 64), with the service's own code from dist/: each post's content rendered
 * (HTML, plain text, headings as JSON, excerpt, word count) and its slug made from its title,
 * oldest first with `-2`, `-3` … on a clash, as the migration gives existing posts; the slugs'
 * rows in `post_slugs`; each comment's text rendered. `p1` holds the slug of P1's post and its
 * comments and tags, counted as they are written.
 */
function published({ fixtures, tables }, { tags }) {
  const content = require(join(ROOT, 'dist/src/blog/common/content/index.js'));
  const { postCard } = require(join(ROOT, 'dist/src/blog/posts/post-card.js'));
  const { slugCandidates, slugOfTitle } = require(join(ROOT, 'dist/src/blog/posts/post-slug.js'));
  const p1 = { slug: null, comments: 0, tags: 0 };
  const slugs = [];
  function* posts() {
    const taken = new Set();
    for (const post of tables.posts()) {
      const base = slugOfTitle(post.title);
      let slug = base;
      for (let round = 0; taken.has(slug); round++) {
        slug = slugCandidates(base, round).find((candidate) => !taken.has(candidate)) ?? slug;
      }
      taken.add(slug);
      slugs.push({ slug, postId: post.id, createdAt: post.createdAt });
      if (post.id === fixtures.p1PostId) p1.slug = slug;
      const rendered = content.renderPostContent(post.content);
      const { excerpt, wordCount } = postCard(rendered, null);
      yield {
        ...post,
        slug,
        excerpt,
        contentHtml: rendered.html,
        contentText: rendered.text,
        toc: JSON.stringify(rendered.toc),
        wordCount,
      };
    }
  }
  function* postTags() {
    if (!tags) return;
    for (const tag of tables.postTags()) {
      if (tag.postId === fixtures.p1PostId) p1.tags++;
      yield tag;
    }
  }
  function* comments() {
    for (const comment of tables.comments()) {
      if (comment.postId === fixtures.p1PostId) p1.comments++;
      yield { ...comment, textHtml: content.renderCommentText(comment.text).html };
    }
  }
  return {
    fixtures,
    p1,
    tables: {
      ...tables,
      posts,
      post_slugs: () => slugs.values(),
      post_tags: postTags,
      comments,
    },
  };
}

async function writeSqlite(databaseUrl, tables, log) {
  const Database = require('better-sqlite3');
  const db = new Database(databaseUrl.slice('sqlite:'.length));
  const counts = {};
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -200000');
    for (const table of TABLES) {
      const columns = COLUMNS[table];
      const insert = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      const index = table === 'posts' ? searchIndexWriter(db) : null;
      const insertMany = db.transaction((rows) => {
        for (const row of rows) {
          insert.run(row);
          index?.(row[0]);
        }
      });
      let batch = [];
      let count = 0;
      for (const row of tables[table]()) {
        batch.push(VALUES[table](row, sqliteTime));
        if (batch.length === 10_000) {
          insertMany(batch);
          count += batch.length;
          batch = [];
        }
      }
      insertMany(batch);
      counts[table] = count + batch.length;
      log(`  ${table}: ${counts[table]}`);
    }
    // The service opens the file in WAL mode; leave it so.
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  return counts;
}

/**
 * Where the service writes new posts' entries in SQLite's search index itself (see
 * lib/search-index.mjs), a function that writes one post's entry, to run just after the post is
 * inserted, as the trigger did before: FTS5's segments, and so what a later write costs, are then
 * those of a blog written post by post, as before. Null where the trigger still writes them.
 */
function searchIndexWriter(db) {
  if (!db.prepare(DEFERS_SEARCH_INDEX).get()) return null;
  const statements = INDEX_ONE_POST.map((sql) => db.prepare(sql));
  return (postId) => {
    for (const statement of statements) statement.run(postId);
  };
}

const PG_TYPES = {
  users: [
    'varchar',
    'varchar',
    'varchar',
    'varchar',
    'varchar',
    'varchar',
    'varchar',
    'timestamptz',
    'timestamptz',
  ],
  posts: [
    'varchar',
    'varchar',
    'text',
    'varchar',
    'timestamptz',
    'timestamptz',
    'timestamptz',
    'varchar',
    'varchar',
    'text',
    'text',
    'text',
    'int4',
  ],
  post_slugs: ['varchar', 'varchar', 'timestamptz'],
  post_tags: ['varchar', 'varchar', 'int4'],
  comments: ['varchar', 'varchar', 'varchar', 'text', 'text', 'timestamptz'],
  likes: ['varchar', 'varchar', 'timestamptz'],
  follows: ['varchar', 'varchar', 'timestamptz'],
};

async function writePostgres(databaseUrl, tables, log) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const counts = {};
  try {
    for (const table of TABLES) {
      const columns = COLUMNS[table];
      // One parameter per column: arrays of a whole batch, unnested into rows by the server.
      const sql =
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) ` +
        `SELECT * FROM unnest(${PG_TYPES[table].map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
      let batch = columns.map(() => []);
      let size = 0;
      let count = 0;
      const flush = async () => {
        if (size === 0) return;
        await client.query(sql, batch);
        count += size;
        batch = columns.map(() => []);
        size = 0;
      };
      await client.query('BEGIN');
      for (const row of tables[table]()) {
        const values = VALUES[table](row, isoTime);
        for (let c = 0; c < values.length; c++) batch[c].push(values[c]);
        if (++size === 5_000) await flush();
      }
      await flush();
      await client.query('COMMIT');
      counts[table] = count;
      log(`  ${table}: ${count}`);
    }
    // What autovacuum would have done on a live database: fresh statistics, and a vacuum, so that
    // the rounds do not pay for a fresh bulk load (setting hint bits, merging the GIN index's
    // pending entries) nor share the machine with autovacuum doing it.
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
  return counts;
}

function parseCli(argv) {
  const options = { scale: 1, seed: 42, database: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--database') options.database = argv[++i];
    else if (arg === '--scale') options.scale = Number(argv[++i]);
    else if (arg === '--small') options.scale = 0.1;
    else if (arg === '--seed') options.seed = argv[++i];
    else throw new Error(`Unknown option ${arg}`);
  }
  if (!options.database) throw new Error('--database sqlite:<path> or postgres://... is required');
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = parseCli(process.argv.slice(2));
  const result = await generate({
    databaseUrl: options.database,
    sizes: scaleSizes(FULL_SIZES, options.scale),
    seed: options.seed,
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(result, null, 2));
}
