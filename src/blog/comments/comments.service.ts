import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, Sql } from '../common/sql';
import { BlogEvents } from '../events/blog-events';
import { PostsService } from '../posts/posts.service';
import { isAdmin, Viewer } from '../users/viewer';
import { Comment } from './comment.entity';
import { commentColumns, CommentRow, toComment } from './comment.rows';

function statements(sql: Sql) {
  const cols = commentColumns('c');
  /** The first page of each post's comments: ids from the (post, id) index per post, then rows. */
  const ranked = (after: boolean) => {
    const ids = `SELECT x.id FROM comments x WHERE x.post_id = k.value${after ? ' AND x.id > ?' : ''} ORDER BY x.id LIMIT ?`;
    return sql.statement({
      sqlite: `SELECT ${cols} FROM KEYS k JOIN comments c ON c.id IN (${ids}) ORDER BY c.id`,
      postgres: `SELECT ${cols} FROM KEYS k CROSS JOIN LATERAL (${ids}) t JOIN comments c ON c.id = t.id ORDER BY c.id`,
    });
  };
  return {
    byIds: sql.statement(`SELECT ${cols} FROM comments c WHERE c.id IN (??)`),
    rankedByPosts: [ranked(false), ranked(true)],
    countByPosts: sql.statement(
      'SELECT c.post_id AS key, COUNT(*) AS count FROM comments c WHERE c.post_id IN (??) GROUP BY c.post_id',
    ),
  };
}

@Injectable()
export class CommentsService {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    @InjectRepository(Comment) private readonly comments: Repository<Comment>,
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
  ) {
    this.statements = statements(sql);
  }

  /** Comments a published post as the viewer. */
  async add(postId: string, text: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to comment.');
    await this.posts.findPublished(postId, viewer);
    const comment = this.comments.create({ postId, text, authorId: viewer.id });
    await this.comments.insert(comment);
    await this.events.commentAdded(comment.id, postId);
    return comment;
  }

  async findByIds(ids: readonly string[]): Promise<Comment[]> {
    return (await this.sql.all<CommentRow>(this.statements.byIds, [this.sql.keys(ids)])).map(
      toComment,
    );
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
    const keys = this.sql.keys(postIds);
    const parameters = page.after ? [keys, page.after, page.first] : [keys, page.first];
    const rows = await this.sql.all<CommentRow>(
      this.statements.rankedByPosts[page.after ? 1 : 0],
      parameters,
    );
    return groupBy(postIds, rows.map(toComment), (comment) => comment.postId);
  }

  async countByPosts(postIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countByPosts, [this.sql.keys(postIds)]));
  }
}
