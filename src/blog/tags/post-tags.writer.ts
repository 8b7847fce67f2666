import { Injectable } from '@nestjs/common';

import { tagSlugs } from './tag-slug';
import { tagsSql } from './tags.sql';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { PostTagsWriter } from '../posts/post-tags-writer';

/**
 * Writes a post's tags in the post's transaction, for PostsService; it needs nothing of
 * PostsService itself, which TagsService (that reads pages of posts) does.
 */
@Injectable()
export class TagsWriter implements PostTagsWriter {
  private readonly statements: PreparedStatements<typeof tagsSql>;

  constructor(sql: Sql) {
    this.statements = sql.prepare(tagsSql);
  }

  slugsOf(tags: readonly string[], field: string): string[] {
    return tagSlugs(tags, field);
  }

  async replace(sql: SqlRunner, postId: string, slugs: readonly string[]): Promise<void> {
    await sql.run(this.statements.removeFromPost, { postId });
    for (const [position, slug] of slugs.entries()) {
      await sql.run(this.statements.add, { postId, slug, position });
    }
  }
}
