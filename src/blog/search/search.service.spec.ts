import { parseSearchQuery } from './search-query';
import { SearchService } from './search.service';
import type { BlogModuleOptions } from '../blog-options.interface';
import type { Sql } from '../common/sql';
import type { PostSearchIndex } from '../posts/post-search-index';

describe('SearchService', () => {
  const sql = { prepare: () => ({}) } as unknown as Sql;
  const index = {} as PostSearchIndex;
  const options = (searchRankWindow?: number) =>
    ({ jwtSecret: 'x'.repeat(32), searchRankWindow }) as BlogModuleOptions;

  it('should refuse a rank window that is not a whole number of at least 1', () => {
    for (const window of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new SearchService(sql, index, options(window))).toThrow(
        `BlogModule searchRankWindow must be a whole number of at least 1, got ${String(window)}`,
      );
    }
  });

  it('should give each hit the part of its text that the index read, which its snippet is cut from', async () => {
    const row = {
      id: 'post',
      title: 'Docs',
      content: 'See [the docs](https://example.com/zebra-url) about **caching**',
      searchedText: 'See the docs about caching',
      rank: 1,
      publishedAt: '2026-01-01 00:00:00.000',
    };
    // The row's other columns are NULL.
    const stored = new Proxy(row, { get: (target, key) => (target as never)[key] ?? null });
    const runner = { all: jest.fn().mockResolvedValue([stored]) };
    const reading = {
      reading: (read: (sql: unknown) => Promise<unknown>) => read(runner),
    } as unknown as PostSearchIndex;
    const service = new SearchService(sql, reading, options());
    const request = { first: 10, after: null, tags: [] };
    const { hits } = await service.search(parseSearchQuery('caching'), request);
    expect(hits.map(({ post, text }) => [post.content, text])).toEqual([
      [row.content, 'See the docs about caching'],
    ]);
  });

  it('should take a window of 1 or more, and the default without one', () => {
    expect(() => new SearchService(sql, index, options(1))).not.toThrow();
    expect(() => new SearchService(sql, index, options())).not.toThrow();
  });
});
