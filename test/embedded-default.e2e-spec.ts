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
      const { users } = await t.data(`{ users { handle posts { title } } }`);
      expect(users.map((u: { handle: string }) => u.handle)).toEqual(['ada', 'grace', 'alan']);
      expect(users[0].posts.length).toBeGreaterThan(0);
      const { logIn } = await t.data(
        `mutation { logIn(input: {email: "ada@example.com", password: "demo-password"}) { user { handle } } }`,
      );
      expect(logIn.user.handle).toBe('ada');
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
      expect(users).toHaveLength(4);
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
