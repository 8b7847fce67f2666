import { Injectable } from '@nestjs/common';

import { feedSql } from './feed.sql';
import { Page } from '../common/pagination';
import { PreparedStatements, Sql } from '../common/sql';
import { FollowsService } from '../follows/follows.service';
import { Post } from '../posts/post.entity';
import { toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

@Injectable()
export class FeedService {
  private readonly statements: PreparedStatements<typeof feedSql>;

  constructor(
    private readonly posts: PostsService,
    private readonly follows: FollowsService,
    private readonly sql: Sql,
  ) {
    this.statements = sql.prepare(feedSql);
  }

  /**
   * Published posts by the authors the viewer follows and by the viewer, newest first; every
   * published post when the viewer is anonymous or follows no one.
   */
  async feed(viewer: Viewer, page: Page): Promise<Post[]> {
    if (!viewer || !(await this.follows.followsAnyone(viewer.id))) return this.posts.list(page);
    const parameters = { ...(await this.posts.pageOf(page)), viewerId: viewer.id };
    const { page: first, pageAfter } = this.statements;
    const rows = await this.sql.all(
      parameters.afterId !== undefined ? pageAfter : first,
      parameters,
    );
    return rows.map(toPost);
  }
}
