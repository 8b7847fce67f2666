import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Viewer } from '../common/blog-context';
import { unauthenticated } from '../common/errors';
import { countsByKey, Sql } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { Like } from './like.entity';

export interface LikeChange {
  post: Post;
  /** False when the like was already there (or already gone). */
  changed: boolean;
}

function statements(sql: Sql) {
  return {
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
    @InjectRepository(Like) private readonly likes: Repository<Like>,
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
    const already = await this.likes.existsBy({ postId, userId: viewer.id });
    if (!already) {
      await this.likes
        .createQueryBuilder()
        .insert()
        .values({ postId, userId: viewer.id, createdAt: new Date() })
        .orIgnore()
        .execute();
      await this.events.postLikesChanged(postId);
    }
    return { post, changed: !already };
  }

  async unlike(postId: string, viewer: Viewer): Promise<LikeChange> {
    if (!viewer) throw unauthenticated('You must be signed in to unlike a post.');
    const post = await this.posts.findPublished(postId, viewer);
    const result = await this.likes.delete({ postId, userId: viewer.id });
    const changed = (result.affected ?? 0) > 0;
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
