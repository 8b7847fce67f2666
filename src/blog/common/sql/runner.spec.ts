import type { DataSource } from 'typeorm';

import { Sql } from './runner';
import { statement } from './statement';

describe('Sql.prepare', () => {
  const postgres = new Sql({ options: { type: 'postgres' } } as unknown as DataSource);

  it('should name each statement by its text, so that PostgreSQL plans it once per connection', () => {
    const { a, b } = postgres.prepare({
      a: statement('SELECT 1 FROM posts WHERE id = :id'),
      b: statement('SELECT 2 FROM posts WHERE id = :id'),
    });
    expect(a.name).toMatch(/^blog_[0-9a-f]{16}$/);
    expect(b.name).toMatch(/^blog_[0-9a-f]{16}$/);
    expect(a.name).not.toBe(b.name);
    expect(a.text).toBe('SELECT 1 FROM posts WHERE id = $1');
  });

  it("should leave a statement planned for each run's values unnamed", () => {
    const { search } = postgres.prepare({
      search: statement('SELECT 1 FROM posts WHERE id = :id', { planEachRun: true }),
    });
    expect(search.name).toBeUndefined();
    expect(search.text).toBe('SELECT 1 FROM posts WHERE id = $1');
  });
});
