import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPostgresDatabase, testDatabase } from './helpers/databases';
import { instanceOn, untilPublished } from './helpers/scheduled';
import { TestUser } from './helpers/test-app';

const CREATE = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id slug status scheduledAt }
}`;

/** A database that outlives the instances started on it: each test starts and stops its own. */
async function sharedDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (testDatabase() === 'postgres') return createPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'blog-scheduled-'));
  return {
    url: `sqlite:${join(dir, 'blog.sqlite')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Scheduled posts publish themselves exactly once, however many instances share the database,
 * and those that came due while no instance ran publish at the next start. Two instances at
 * once: scheduled-publishing-instances.e2e-spec.ts, on PostgreSQL.
 */
describe('Scheduled posts across instances and restarts (e2e)', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeEach(async () => {
    database = await sharedDatabase();
  });
  afterEach(() => database.drop());

  it('should publish a post that came due while every instance was down, at the next start', async () => {
    const first = await instanceOn(database.url);
    let author: TestUser;
    let id: string;
    const at = new Date(Date.now() + 1_500).toISOString();
    try {
      author = await first.signUp();
      id = (
        await first.data(
          CREATE,
          { input: { title: 'While down', content: 'x', publishAt: at } },
          author.token,
        )
      ).createPost.id;
    } finally {
      await first.close();
    }
    await sleep(2_000);
    const second = await instanceOn(database.url);
    try {
      const post = await untilPublished(second, id, author.token);
      expect(post).toMatchObject({ status: 'PUBLISHED', publishedAt: at, scheduledAt: null });
    } finally {
      await second.close();
    }
  });
});
