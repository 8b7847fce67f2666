import { Injectable } from '@nestjs/common';
import { unauthenticated } from '../common/errors';
import { countsByKey, Sql } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

export interface LikeChange {
  post: Post;
  /** False when the like was already there (or already gone). */
  changed: boolean;
}

function statements(sql: Sql) {
  return {
    like: sql.statement(
      'INSERT INTO likes (post_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    unlike: sql.statement('DELETE FROM likes WHERE post_id = ? AND user_id = ?'),
    countByPosts: sql.statement(
      'SELECT l.post_id AS key, COUNT(*) AS count FROM likes l WHERE l.post_id IN (??) GROUP BY l.post_id',
    ),
    likedBy: sql.statement(
      'SELECT l.post_id AS key FROM likes l WHERE l.user_id = ? AND l.post_id IN (??)',
    ),
  };
}

@Injectable()
export class LikesService {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
  ) {
    this.statements = statements(sql);
  }

  /** Likes a published post; liking twice leaves one like (the primary key sees to it). */
  async like(postId: string, viewer: Viewer): Promise<LikeChange> {
    if (!viewer) throw unauthenticated('You must be signed in to like a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const at = this.sql.timestamp(new Date());
    const changed = (await this.sql.run(this.statements.like, [postId, viewer.id, at])) > 0;
    if (changed) await this.events.postLikesChanged(postId);
    return { post, changed };
  }

  async unlike(postId: string, viewer: Viewer): Promise<LikeChange> {
    if (!viewer) throw unauthenticated('You must be signed in to unlike a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const changed = (await this.sql.run(this.statements.unlike, [postId, viewer.id])) > 0;
    if (changed) await this.events.postLikesChanged(postId);
    return { post, changed };
  }

  async countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countByPosts, [this.sql.keys(postIds)]));
  }

  /** The posts among `postIds` that `userId` likes. */
  async likedBy(userId: string, postIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all<{ key: string }>(this.statements.likedBy, [
      userId,
      this.sql.keys(postIds),
    ]);
    return new Set(rows.map((row) => row.key));
  }
}
