import { Injectable } from '@nestjs/common';

import { Page } from '../common/pagination';
import { FollowsService } from '../follows/follows.service';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

@Injectable()
export class FeedService {
  constructor(
    private readonly posts: PostsService,
    private readonly follows: FollowsService,
  ) {}

  /**
   * Published posts by the authors the viewer follows and by the viewer, newest first; every
   * published post when the viewer is anonymous or follows no one.
   */
  async feed(viewer: Viewer, page: Page): Promise<Post[]> {
    if (!viewer || !(await this.follows.followsAnyone(viewer.id))) return this.posts.list(page);
    return this.posts.list(page, { feedOf: viewer.id });
  }
}
