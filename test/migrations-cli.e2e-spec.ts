import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import Database from 'better-sqlite3';

const run = promisify(execFile);

/** `npm run migration:*` through the TypeORM CLI and ormconfig.ts, on a scratch SQLite file. */
describe('The migration scripts (e2e)', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-migrations-'));
    file = join(dir, 'cli.sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const npm = (script: string, ...args: string[]) =>
    run('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
      timeout: 120_000,
    });
  const tables = () => {
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as {
        name: string;
      }[];
      return rows.map((row) => row.name).sort();
    } finally {
      db.close();
    }
  };
  const columnsOf = (table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
        (column) => column.name,
      );
    } finally {
      db.close();
    }
  };
  const viewOf = (name: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const row = db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?`)
        .get(name) as { sql: string };
      return row.sql;
    } finally {
      db.close();
    }
  };
  const migrationsRun = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT name FROM migrations').all() as { name: string }[]).map(
        (row) => row.name,
      );
    } finally {
      db.close();
    }
  };
  const indexesOf = (table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`PRAGMA index_list(${table})`).all() as { name: string }[])
        .map((index) => index.name)
        .filter((name) => !name.startsWith('sqlite_'))
        .sort();
    } finally {
      db.close();
    }
  };

  it('should run every migration, revert the last twenty, and find the entities in step', async () => {
    await npm('migration:run');
    expect(tables()).toEqual(
      expect.arrayContaining(['comments', 'follows', 'likes', 'migrations', 'posts', 'users']),
    );

    // The last one keeps account e-mail: a verified flag on users, single-use tokens stored as
    // hashes, and the outbox the mail worker sends from.
    expect(tables()).toEqual(expect.arrayContaining(['account_tokens', 'mail_outbox']));
    expect(columnsOf('users')).toContain('email_verified');
    expect(indexesOf('account_tokens')).toContain('UQ_account_tokens_hash');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('AccountEmail1765010000000');
    expect(tables()).not.toContain('account_tokens');
    expect(tables()).not.toContain('mail_outbox');
    expect(columnsOf('users')).not.toContain('email_verified');

    // The one before keeps webhooks and their deliveries, the outbox their worker claims from.
    expect(tables()).toEqual(expect.arrayContaining(['webhooks', 'webhook_deliveries']));
    expect(indexesOf('webhook_deliveries')).toContain('IDX_webhook_deliveries_due');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('CreateWebhooks1765009000000');
    expect(tables()).not.toContain('webhooks');
    expect(tables()).not.toContain('webhook_deliveries');

    // The one before keeps uploaded images, the uploads being stored, and where posts and users
    // use them.
    expect(tables()).toEqual(expect.arrayContaining(['images', 'image_uploads']));
    expect(indexesOf('image_uploads')).toContain('IDX_image_uploads_expires');
    expect(columnsOf('posts')).toContain('cover_image_id');
    expect(columnsOf('users')).toContain('avatar_image_id');
    expect(indexesOf('images')).toContain('IDX_images_owner_created');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('CreateImages1765008000000');
    expect(tables()).not.toContain('images');
    expect(tables()).not.toContain('image_uploads');
    expect(columnsOf('posts')).not.toContain('cover_image_id');
    expect(columnsOf('users')).not.toContain('avatar_image_id');

    // The one before files reports, grouped by target into the moderation queue: at most one open
    // item a target (a partial unique index).
    expect(tables()).toEqual(expect.arrayContaining(['moderation_items', 'reports']));
    expect(indexesOf('moderation_items')).toContain('UQ_moderation_items_open_target');
    expect(indexesOf('reports')).toContain('UQ_reports_reporter_target');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('CreateReports1765007300000');
    expect(tables()).not.toContain('reports');
    expect(tables()).not.toContain('moderation_items');

    // The one before keeps the moderation log, users' bans, and posts' comment locks and hiding.
    expect(tables()).toContain('moderation_log');
    expect(columnsOf('users')).toEqual(
      expect.arrayContaining(['banned_at', 'banned_until', 'ban_reason']),
    );
    expect(columnsOf('posts')).toEqual(
      expect.arrayContaining(['comments_locked_at', 'hidden_at', 'hidden_published_at']),
    );
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('Moderation1765007200000');
    expect(tables()).not.toContain('moderation_log');
    expect(columnsOf('users')).not.toContain('banned_at');
    expect(columnsOf('posts')).not.toContain('hidden_at');

    // The one before threads comments, with their statuses, edits and likes.
    expect(tables()).toContain('comment_likes');
    expect(columnsOf('comments')).toEqual(
      expect.arrayContaining(['parent_id', 'in_reply_to_id', 'status', 'edited_at', 'likes_count']),
    );
    expect(indexesOf('comments')).toContain('IDX_comments_threads');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('CommentThreads1765007100000');
    expect(tables()).not.toContain('comment_likes');
    expect(columnsOf('comments')).not.toContain('parent_id');
    expect(columnsOf('comments')).toContain('text_html');
    expect(indexesOf('comments')).toEqual(['IDX_comments_author', 'IDX_comments_post']);

    // The one before gives users their roles (`user` became `author`) and posts their review.
    expect(columnsOf('posts')).toEqual(
      expect.arrayContaining(['review_state', 'review_requested_at', 'rejection_reason']),
    );
    expect(indexesOf('posts')).toContain('IDX_posts_review');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('UserRoles1765007000000');
    expect(columnsOf('posts')).not.toContain('review_state');
    expect(indexesOf('posts')).not.toContain('IDX_posts_review');

    // The one before has the search index read a post's rendered text instead of its Markdown.
    expect(viewOf('post_search_text')).toContain('content_text');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('SearchRenderedText1765006000000');
    expect(viewOf('post_search_text')).not.toContain('content_text');

    // The one before gives posts their slugs, rendered content, cards and schedule.
    expect(tables()).toContain('post_slugs');
    expect(columnsOf('posts')).toEqual(
      expect.arrayContaining(['slug', 'content_html', 'scheduled_at']),
    );
    expect(columnsOf('comments')).toContain('text_html');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('PublishPosts1765005000000');
    expect(tables()).not.toContain('post_slugs');
    expect(columnsOf('posts')).not.toContain('slug');
    expect(columnsOf('comments')).not.toContain('text_html');

    // The one before normalises the stored avatars; reverting it changes no table.
    expect(migrationsRun()).toContain('NormaliseAvatars1765004000000');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('NormaliseAvatars1765004000000');

    // The one before rewrites the stored tags with the slug rule; reverting it changes no
    // table (the slugs before cannot be told apart) and forgets only that it ran.
    expect(migrationsRun()).toContain('RewriteTagSlugs1765003000000');
    await npm('migration:revert');
    expect(migrationsRun()).not.toContain('RewriteTagSlugs1765003000000');
    expect(tables()).toContain('tag_counts');

    // The one before fans publications out in chunks, and ties comments' notifications to them.
    expect(columnsOf('publication_fan_outs')).toEqual(
      expect.arrayContaining(['after_follower', 'attempts', 'parked_at']),
    );
    expect(columnsOf('notifications')).toContain('comment_id');
    await npm('migration:revert');
    expect(columnsOf('publication_fan_outs')).not.toContain('attempts');
    expect(columnsOf('notifications')).not.toContain('comment_id');

    // The one before keeps each tag's number of published posts.
    expect(tables()).toContain('tag_counts');
    await npm('migration:revert');
    expect(tables()).not.toContain('tag_counts');

    // The one before has the search index read the first 5,000 characters of a post's content.
    expect(viewOf('post_search_text')).toContain('substr(');
    await npm('migration:revert');
    expect(viewOf('post_search_text')).not.toContain('substr(');

    // The one before marks the posts that the search index has yet to read.
    expect(columnsOf('post_search')).toContain('indexed');
    await npm('migration:revert');
    expect(columnsOf('post_search')).not.toContain('indexed');

    // The one before makes the table of the publications still to fan out.
    expect(tables()).toContain('publication_fan_outs');
    await npm('migration:revert');
    expect(tables()).not.toContain('publication_fan_outs');

    // The one before indexes the prefixes of PostgreSQL's search (nothing to do on SQLite);
    // the one before that indexes notifications by actor and post, and reverting it brings back the
    // index by actor alone.
    await npm('migration:revert');
    expect(indexesOf('notifications')).toContain('IDX_notifications_actor_post');
    await npm('migration:revert');
    expect(indexesOf('notifications')).toEqual([
      'IDX_notifications_actor',
      'IDX_notifications_post',
      'IDX_notifications_recipient',
    ]);

    // The one before keeps PostgreSQL's search documents in their rows (nothing to do on
    // SQLite), the one before that folds the text of the search index; reverting both leaves
    // every earlier one in place.
    await npm('migration:revert');
    await npm('migration:revert');
    expect(columnsOf('post_search')).not.toContain('title_folded');
    expect(columnsOf('post_search')).toContain('published_at');
    expect(tables()).toContain('bookmarks');
    expect(columnsOf('users')).toContain('token_version');

    await npm('migration:run');
    const { stdout } = await npm('migration:generate', join(dir, 'Drift'), '--dryrun').catch(
      (error: { stdout: string }) => error,
    );
    expect(stdout).toContain('No changes in database schema were found');
  }, 600_000);
});
