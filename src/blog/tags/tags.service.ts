import { Injectable } from '@nestjs/common';

import { TagCursor } from './tag-cursor';
import { tagsSql } from './tags.sql';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, PreparedStatements, Sql } from '../common/sql';
import { Post } from '../posts/post.entity';
import { toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';

/** A tag and its number of published posts. */
export interface TagCount {
  slug: string;
  count: number;
}

/** Tags: the tags of posts, and tags with their published posts. */
@Injectable()
export class TagsService {
  private readonly statements: PreparedStatements<typeof tagsSql>;

  constructor(
    private readonly posts: PostsService,
    private readonly sql: Sql,
  ) {
    this.statements = sql.prepare(tagsSql);
  }

  /** The tags of each post, in their order, in one statement. */
  async tagsOfPosts(postIds: readonly string[]): Promise<Map<string, string[]>> {
    const rows = await this.sql.all(this.statements.tagsOfPosts, { postIds });
    const tags = groupBy(postIds, rows, (row) => row.postId);
    return new Map([...tags].map(([id, list]) => [id, list.map((row) => row.slug)]));
  }

  /** The number of published posts of each tag, in one grouped statement. */
  async countPublishedByTags(slugs: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countPublishedByTags, { slugs }));
  }

  /** One page of published posts, newest first, for each tag, in one statement. */
  async listByTags(slugs: readonly string[], page: Page): Promise<Map<string, Post[]>> {
    if (page.first === 0 || slugs.length === 0) return groupBy(slugs, [], () => '');
    const parameters = { ...(await this.posts.pageOf(page)), slugs };
    const statement =
      parameters.afterId !== undefined
        ? this.statements.pagesByTagsAfter
        : this.statements.pagesByTags;
    const rows = await this.sql.all(statement, parameters);
    const pages = groupBy(slugs, rows, (row) => row.tag);
    return new Map([...pages].map(([slug, list]) => [slug, list.map(toPost)]));
  }

  /** Tags with published posts, most posts first, then by slug; `first` + 1 to see if more follow. */
  async popular(first: number, after: TagCursor | null): Promise<TagCount[]> {
    const rows = after
      ? await this.sql.all(this.statements.popularAfter, {
          first,
          afterCount: after.count,
          afterSlug: after.slug,
        })
      : await this.sql.all(this.statements.popular, { first });
    return rows.map((row) => ({ slug: row.slug, count: Number(row.count) }));
  }
}
