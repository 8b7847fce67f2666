import { Logger } from '@nestjs/common';

import { PostSearchIndex, SEARCH_INDEX_RETRY_MS } from './post-search-index';
import { SEARCH_INDEX_BATCH } from './posts.sql';
import { Sql, SqlRunner } from '../common/sql';
import { BlogTestingModule, createBlogTestingModule } from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('PostSearchIndex', () => {
  let blog: BlogTestingModule;
  let index: PostSearchIndex;
  let sql: Sql;
  let author: User;
  let posts = 0;

  beforeEach(async () => {
    blog = await createBlogTestingModule([UsersService]);
    index = blog.moduleRef.get(PostSearchIndex);
    sql = blog.moduleRef.get(Sql);
    author = await blog.signUp();
  });
  afterEach(async () => {
    await index.beforeApplicationShutdown();
    await blog.close();
    jest.restoreAllMocks();
  });

  /** Posts written as another client writes them: straight into the table. */
  const insertPosts = async (count: number, word = 'okapi') => {
    const insert = blog.dataSource.driver as unknown as {
      databaseConnection: { prepare(sql: string): { run(...values: unknown[]): void } };
    };
    const statement = insert.databaseConnection.prepare(
      'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at) ' +
        "VALUES (?, 'A post', ?, ?, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000', NULL)",
    );
    for (let i = 0; i < count; i += 1) {
      statement.run(`post-${(posts += 1)}`, `About an ${word}.`, author.id);
    }
  };
  const unindexed = async () =>
    Number(
      (await blog.dataSource.query('SELECT count(*) AS n FROM post_search WHERE indexed = 0'))[0].n,
    );
  const matches = async (runner: SqlRunner | null, word: string) => {
    const text = `SELECT count(*) AS n FROM post_search_fts WHERE post_search_fts MATCH '${word}'`;
    const [row] = runner
      ? await runner.all(sql.prepare({ q: { text } }).q, {})
      : await blog.dataSource.query(text);
    return Number((row as { n: number }).n);
  };

  it("should index a post's rendered text, and its Markdown only where it has none", async () => {
    const driver = blog.dataSource.driver as unknown as {
      databaseConnection: { prepare(sql: string): { run(...values: unknown[]): void } };
    };
    const insert = driver.databaseConnection.prepare(
      'INSERT INTO posts (id, title, content, content_text, author_id, created_at, updated_at, ' +
        "published_at) VALUES (?, 'A post', ?, ?, ?, '2026-01-01 00:00:00.000', " +
        "'2026-01-01 00:00:00.000', NULL)",
    );
    insert.run(
      'rendered',
      'See [the docs](https://example.com/zebra-url) about **caching**',
      'See the docs about caching',
      author.id,
    );
    insert.run('markdown', 'An [okapi](https://example.com/tapir-url).', null, author.id);
    await index.reading(async () => undefined);
    expect(await matches(null, 'caching')).toBe(1);
    expect(await matches(null, 'docs')).toBe(1);
    expect(await matches(null, 'zebra')).toBe(0);
    expect(await matches(null, 'tapir')).toBe(1);

    // A change of the text alone, by whoever writes it, indexes the post again.
    await blog.dataSource.query(
      "UPDATE posts SET content_text = 'Now about kelp' WHERE id = 'rendered'",
    );
    expect(await matches(null, 'caching')).toBe(0);
    expect(await matches(null, 'kelp')).toBe(1);
    await blog.dataSource.query(
      "INSERT INTO post_search_fts (post_search_fts, rank) VALUES ('integrity-check', 1)",
    );
  });

  it('should index what is left before a read, in the transaction of the read', async () => {
    await insertPosts(3);
    expect(await unindexed()).toBe(3);
    const transaction = jest.spyOn(sql, 'transaction');
    const found = await index.reading((runner) => matches(runner, 'okapi'));
    expect(found).toBe(3);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(await unindexed()).toBe(0);
    await blog.dataSource.query(
      "INSERT INTO post_search_fts (post_search_fts, rank) VALUES ('integrity-check', 1)",
    );
  });

  it('should index shortly after a post is written here, a batch at a time', async () => {
    await insertPosts(SEARCH_INDEX_BATCH + 2, 'tapir');
    const transaction = jest.spyOn(sql, 'transaction');
    index.written();
    expect(await unindexed()).toBe(SEARCH_INDEX_BATCH + 2);
    await index.settled();
    expect(await unindexed()).toBe(0);
    expect(await matches(null, 'tapir')).toBe(SEARCH_INDEX_BATCH + 2);
    expect(transaction).toHaveBeenCalledTimes(2);
  });

  it('should index at the start what was left, without a post written here', async () => {
    await insertPosts(2, 'quokka');
    await index.onApplicationBootstrap();
    expect(await matches(null, 'quokka')).toBe(2);
  });

  it('should log a batch that failed, keep its posts, and try again later', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => {});
    await insertPosts(1, 'dugong');
    jest.spyOn(sql, 'transaction').mockRejectedValueOnce(new Error('disk I/O error'));
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      index.written();
      await jest.advanceTimersByTimeAsync(25);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('disk I/O error'));
      expect(await unindexed()).toBe(1);
      await jest.advanceTimersByTimeAsync(SEARCH_INDEX_RETRY_MS);
    } finally {
      jest.useRealTimers();
    }
    await index.settled();
    expect(await unindexed()).toBe(0);
  });

  it('should do nothing on PostgreSQL, which indexes each post as it is written', async () => {
    const postgres = { dialect: 'postgres', prepare: () => ({}) } as unknown as Sql;
    const direct = new PostSearchIndex(postgres);
    const transaction = jest.fn();
    Object.assign(postgres, { transaction });
    direct.written();
    await direct.onApplicationBootstrap();
    await direct.settled();
    expect(await direct.reading(async (runner) => runner)).toBe(postgres);
    expect(transaction).not.toHaveBeenCalled();
  });
});
