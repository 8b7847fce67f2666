import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { TestApp } from './helpers/test-app';
import { SqliteCheckpointer } from '../src/database/sqlite-checkpointer';

/** The service with no configuration at all, as `npm start` runs it on a fresh clone. */
const DEVELOPMENT_DEFAULTS = {
  NODE_ENV: 'development',
  DATABASE_URL: undefined,
  JWT_SECRET: undefined,
  SEED_DEMO: undefined,
};

describe('The embedded SQLite default (e2e)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blog-default-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = (env: Record<string, string> = {}) =>
    TestApp.start({
      env: { ...DEVELOPMENT_DEFAULTS, GRAPHQL_SCHEMA_FILE: join(dataDir, 'schema.gql'), ...env },
      dataDir,
    });

  it('should create the database file by migrations, in WAL mode, and seed a demo', async () => {
    const t = await start();
    try {
      const file = join(dataDir, 'blog.sqlite');
      expect(existsSync(file)).toBe(true);
      const db = new Database(file, { readonly: true });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const migrations = db.prepare('SELECT name FROM migrations').all() as { name: string }[];
      expect(migrations.map((m) => m.name)).toContain('CreateUsersAndPosts1763740800000');
      db.close();
      const { users } = await t.data(`{ users { handle role posts { title } } }`);
      expect(users.map((u: { handle: string; role: string }) => [u.handle, u.role])).toEqual([
        ['ada', 'ADMIN'],
        ['grace', 'EDITOR'],
        ['alan', 'AUTHOR'],
        ['charles', 'CONTRIBUTOR'],
        ['mallory', 'AUTHOR'],
      ]);
      expect(users[0].posts.length).toBeGreaterThan(0);
      const { logIn } = await t.data(
        `mutation { logIn(input: {email: "ada@example.com", password: "demo-password"}) { token user { handle } } }`,
      );
      expect(logIn.user.handle).toBe('ada');
      // The demo's addresses are verified, and none was mailed.
      const { me } = await t.data('{ me { emailVerified } }', {}, `Bearer ${logIn.token}`);
      expect(me).toEqual({ emailVerified: true });
      expect(await t.dataSource.query('SELECT id FROM mail_outbox')).toEqual([]);
      // The demo of conversations: a thread with replies, a post awaiting review, an open report.
      const ada = `Bearer ${logIn.token}`;
      const demo = await t.data(
        `{ posts(first: 10) { commentsConnection(first: 5) { edges { node { repliesCount } } } }
          postsAwaitingReview { totalCount }
          moderationQueue { totalCount edges { node { reports reasons } } } }`,
        {},
        ada,
      );
      const threads = demo.posts.flatMap(
        (p: { commentsConnection: { edges: { node: { repliesCount: number } }[] } }) =>
          p.commentsConnection.edges.map((e) => e.node.repliesCount),
      );
      expect(threads).toContain(2);
      expect(demo.postsAwaitingReview.totalCount).toBe(1);
      expect(demo.moderationQueue.totalCount).toBe(1);
      expect(demo.moderationQueue.edges[0].node).toEqual({ reports: 1, reasons: ['SPAM'] });
      // It starts by itself once writes fill 1 MB of WAL; the seed's do not.
      const checkpointer = t.app.get(SqliteCheckpointer);
      expect(checkpointer.running).toBe(false);
      await checkpointer.start();
      expect(checkpointer.running).toBe(true);
    } finally {
      await t.close();
    }
    // The checkpointer's connection closed first, so the service's, the last, emptied the WAL.
    expect(existsSync(join(dataDir, 'blog.sqlite-wal'))).toBe(false);
  });

  it('should keep data, and the generated secret, across restarts, without seeding twice', async () => {
    const first = await start();
    const { token, user } = await first.signUp();
    await first.close();
    const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8');
    expect(secret.length).toBeGreaterThanOrEqual(32);

    const second = await start();
    try {
      const { me } = await second.data(`{ me { id } }`, {}, token);
      expect(me).toEqual({ id: user.id });
      const { users } = await second.data(`{ users { id } }`);
      // The demo's five, and the one signed up.
      expect(users).toHaveLength(6);
      expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(secret);
    } finally {
      await second.close();
    }
  });

  it('should not seed when SEED_DEMO=false', async () => {
    const t = await start({ SEED_DEMO: 'false' });
    try {
      expect((await t.data(`{ users { id } }`)).users).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
