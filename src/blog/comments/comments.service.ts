import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { isAdmin, Viewer } from '../common/blog-context';
import { forbidden, notFound, unauthenticated } from '../common/errors';
import { BlogEvents } from '../events/blog-events';
import { countGroupedBy, firstPerGroup, groupBy } from '../common/grouped-queries';
import { Page } from '../common/pagination';
import { PostsService } from '../posts/posts.service';
import { Comment } from './comment.entity';

@Injectable()
export class CommentsService {
  constructor(
    @InjectRepository(Comment) private readonly comments: Repository<Comment>,
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
  ) {}

  /** Comments a published post as the viewer. */
  async add(postId: string, text: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to comment.');
    await this.posts.findPublished(postId, viewer);
    const comment = this.comments.create({ postId, text, authorId: viewer.id });
    await this.comments.insert(comment);
    await this.events.commentAdded(comment.id, postId);
    return comment;
  }

  findByIds(ids: readonly string[]): Promise<Comment[]> {
    return this.comments.findBy({ id: In([...ids]) });
  }

  /** Deletes a comment: its author, the post's author or an admin may. */
  async delete(id: string, viewer: Viewer): Promise<string> {
    if (!viewer) throw unauthenticated('You must be signed in to delete a comment.');
    const comment = await this.comments.findOneBy({ id });
    if (!comment) throw notFound('Comment');
    if (comment.authorId !== viewer.id && !isAdmin(viewer)) {
      const post = await this.posts.findVisible(comment.postId, viewer);
      if (post?.authorId !== viewer.id) {
        throw forbidden("Only the comment's author, the post's author or an admin may delete it.");
      }
    }
    await this.comments.delete({ id });
    return id;
  }

  /** A page of comments, oldest first, for each post, in one statement. */
  async listByPosts(postIds: readonly string[], page: Page): Promise<Map<string, Comment[]>> {
    if (page.first === 0 || postIds.length === 0) return groupBy(postIds, [], () => '');
    const candidates = this.comments
      .createQueryBuilder('ranked')
      .where('ranked.postId IN (:...postIds)', { postIds: [...postIds] });
    if (page.after) candidates.andWhere('ranked.id > :after', { after: page.after });
    const comments = await firstPerGroup({
      candidates,
      partitionBy: 'ranked.post_id',
      orderWithinGroup: 'ranked.id ASC',
      first: page.first,
      load: this.comments.createQueryBuilder('row').orderBy('row.id', 'ASC'),
    });
    return groupBy(postIds, comments, (comment) => comment.postId);
  }

  countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countGroupedBy(this.comments, 'postId', postIds);
  }
}
