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

  it('should take a window of 1 or more, and the default without one', () => {
    expect(() => new SearchService(sql, index, options(1))).not.toThrow();
    expect(() => new SearchService(sql, index, options())).not.toThrow();
  });
});
