import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Viewer } from '../common/blog-context';
import { unauthenticated } from '../common/errors';
import { countGroupedBy } from '../common/grouped-queries';
import { BlogEvents } from '../events/blog-events';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import { Like } from './like.entity';

export interface LikeChange {
  post: Post;
  /** False when the like was already there (or already gone). */
  changed: boolean;
}

@Injectable()
export class LikesService {
  constructor(
    @InjectRepository(Like) private readonly likes: Repository<Like>,
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
  ) {}

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

  countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countGroupedBy(this.likes, 'postId', postIds);
  }

  /** The posts among `postIds` that `userId` likes. */
  async likedBy(userId: string, postIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.likes.find({
      select: { postId: true },
      where: { userId, postId: In([...postIds]) },
    });
    return new Set(rows.map((row) => row.postId));
  }
}
