import { Injectable, Optional } from '@nestjs/common';

import { likesSql } from './likes.sql';
import { unauthenticated } from '../common/errors';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { NotificationsService } from '../notifications/notifications.service';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

export interface LikeChange {
  post: Post;
  /** False when the like was already there (or already gone). */
  changed: boolean;
}

/** Likes of published posts, one per user and post. For the host's own code. */
@Injectable()
export class LikesService {
  private readonly statements: PreparedStatements<typeof likesSql>;

  constructor(
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
    @Optional() private readonly notifications?: NotificationsService,
  ) {
    this.statements = sql.prepare(likesSql);
  }

  /** Likes a published post; liking twice leaves one like (the primary key sees to it). */
  async like(postId: string, viewer: Viewer): Promise<LikeChange> {
    if (!viewer) throw unauthenticated('You must be signed in to like a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const like = { postId, userId: viewer.id, createdAt: new Date() };
    const liked = async (sql: SqlRunner) => (await sql.run(this.statements.like, like)) > 0;
    const changed = await (this.notifications?.postLiked(post, viewer.id, liked) ??
      liked(this.sql));
    if (changed) await this.events.postLikesChanged(postId);
    return { post, changed };
  }

  async unlike(postId: string, viewer: Viewer): Promise<LikeChange> {
    if (!viewer) throw unauthenticated('You must be signed in to unlike a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const unlike = { postId, userId: viewer.id };
    const unliked = async (sql: SqlRunner) => (await sql.run(this.statements.unlike, unlike)) > 0;
    const changed = await (this.notifications?.postUnliked(post, viewer.id, unliked) ??
      unliked(this.sql));
    if (changed) await this.events.postLikesChanged(postId);
    return { post, changed };
  }

  async countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countByPosts, { postIds }));
  }

  /** The posts among `postIds` that `userId` likes. */
  async likedBy(userId: string, postIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all(this.statements.likedBy, { userId, postIds });
    return new Set(rows.map((row) => row.key));
  }
}
