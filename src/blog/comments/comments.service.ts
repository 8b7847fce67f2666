import { Injectable, Optional } from '@nestjs/common';

import { Comment } from './comment.entity';
import { toComment, toPagedComment } from './comment.rows';
import { commentsSql } from './comments.sql';
import { renderCommentText } from '../common/content';
import { forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { NotificationsService } from '../notifications/notifications.service';
import { Post } from '../posts/post.entity';
import { PostRow, toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';
import { User } from '../users/user.entity';
import { AuthorRow, toAuthor } from '../users/user.rows';
import { isAdmin, Viewer } from '../users/viewer';

/** Comments on published posts: who may add, list and delete them. For the host's own code. */
@Injectable()
export class CommentsService {
  private readonly statements: PreparedStatements<typeof commentsSql>;

  constructor(
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
    @Optional() private readonly notifications?: NotificationsService,
  ) {
    this.statements = sql.prepare(commentsSql);
  }

  /** Comments a published post as the viewer. */
  async add(postId: string, text: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to comment.');
    const post = await this.posts.findPublished(postId, viewer);
    const comment = Object.assign(new Comment(), {
      id: newId(),
      text,
      textHtml: renderCommentText(text).html,
      postId,
      authorId: viewer.id,
      createdAt: new Date(),
    });
    const added = async (sql: SqlRunner) => (await sql.run(this.statements.insert, comment)) > 0;
    await (this.notifications?.postCommented(post, viewer.id, comment.id, added) ??
      added(this.sql));
    await this.events.commentAdded(comment.id, postId);
    return comment;
  }

  async findByIds(ids: readonly string[]): Promise<Comment[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toComment);
  }

  /** Deletes a comment: its author, the post's author or an admin may. */
  async delete(id: string, viewer: Viewer): Promise<string> {
    if (!viewer) throw unauthenticated('You must be signed in to delete a comment.');
    const comment = await this.sql.one(this.statements.byId, { id });
    if (!comment) throw notFound('Comment');
    if (comment.authorId !== viewer.id && !isAdmin(viewer)) {
      const post = await this.posts.findVisible(comment.postId, viewer);
      if (post?.authorId !== viewer.id) {
        throw forbidden("Only the comment's author, the post's author or an admin may delete it.");
      }
    }
    await this.sql.run(this.statements.delete, { id });
    return id;
  }

  /** A page of comments, oldest first, for each post, in one statement. */
  async listByPosts(postIds: readonly string[], page: Page): Promise<Map<string, Comment[]>> {
    if (page.first === 0 || postIds.length === 0) return groupBy(postIds, [], () => '');
    const rows = page.after
      ? await this.sql.all(this.statements.pagesByPostsAfter, {
          postIds,
          first: page.first,
          after: page.after,
        })
      : await this.sql.all(this.statements.pagesByPosts, { first: page.first, postIds });
    return groupBy(postIds, rows.map(toComment), (comment) => comment.postId);
  }

  /**
   * A post (whoever may see it), its author and its first page of comments, in one statement;
   * null when there is no such post. The page is what {@link listByPosts} reads for it.
   */
  async findPostWithPage(
    id: string,
    page: Page,
  ): Promise<{ post: Post; author: User; comments: Comment[] } | null> {
    const rows = await this.sql.all(this.statements.postWithAuthorAndPage, {
      id,
      first: page.first,
    });
    const postRow = rows.find((row) => row.id !== null) as (PostRow & AuthorRow) | undefined;
    if (!postRow) return null;
    const comments = rows.filter((row) => row['comment.id'] !== null).map(toPagedComment);
    return { post: toPost(postRow), author: toAuthor(postRow), comments };
  }

  async countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countByPosts, { postIds }));
  }
}
