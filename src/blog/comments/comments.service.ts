import { Inject, Injectable, Optional } from '@nestjs/common';

import { CommentStatus } from './comment-status';
import { isCommentModerator, seesComment } from './comment-visibility';
import { Comment } from './comment.entity';
import { ThreadComment, toComment, toPagedComment, toThreadComment } from './comment.rows';
import { commentsSql, ThreadOrder, ThreadPageParameters, ViewerParameters } from './comments.sql';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { renderCommentText } from '../common/content';
import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { DEFAULT_NEW_ACCOUNT_HOURS } from '../limits/write-rate-limit';
import { NotificationsService } from '../notifications/notifications.service';
import { Post } from '../posts/post.entity';
import { PostRow, toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';
import { User } from '../users/user.entity';
import { AuthorRow, toAuthor } from '../users/user.rows';
import { Viewer } from '../users/viewer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

/** Where a page of threads or replies starts: a comment, and for TOP its likes then. */
export interface ThreadPage extends Page {
  afterLikes?: number | null;
}

/** What a new comment answers: the comment replied to. */
interface Answered {
  comment: Comment;
  /** The top-level comment of the thread the reply joins. */
  threadId: string;
}

/** Comments on published posts: threads, edits, likes, and who may delete them. For the host's own code. */
@Injectable()
export class CommentsService {
  private readonly statements: PreparedStatements<typeof commentsSql>;
  /** How long an account is new, when its comments with links are held; 0 when none are. */
  private readonly holdLinksMs: number;

  constructor(
    private readonly posts: PostsService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
    @Optional() @Inject(BLOG_MODULE_OPTIONS) options?: BlogModuleOptions,
    @Optional() private readonly notifications?: NotificationsService,
    @Optional() private readonly webhooks?: WebhookOutbox,
  ) {
    this.statements = sql.prepare(commentsSql);
    this.holdLinksMs = options?.moderation?.holdNewAccountLinks
      ? (options.newAccountHours ?? DEFAULT_NEW_ACCOUNT_HOURS) * 3_600_000
      : 0;
  }

  /**
   * Comments a published post as the viewer; with `parentId`, as a reply in the thread of that
   * comment (of the thread's top-level comment when it is a reply itself).
   */
  async add(
    postId: string,
    text: string,
    viewer: Viewer,
    parentId?: string | null,
  ): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to comment.');
    const post = await this.posts.findPublished(postId, viewer);
    if (post.commentsLockedAt !== null) throw forbidden('Comments on this post are locked.');
    const answered = parentId ? await this.answered(parentId, post, viewer) : null;
    const textHtml = renderCommentText(text).html;
    const comment = Object.assign(new Comment(), {
      id: newId(),
      text,
      textHtml,
      postId,
      authorId: viewer.id,
      createdAt: new Date(),
      parentId: answered?.threadId ?? null,
      inReplyToId: answered?.comment.id ?? null,
      status: this.held(viewer, textHtml) ? CommentStatus.HELD : CommentStatus.PUBLISHED,
      editedAt: null,
      likesCount: 0,
    });
    // A held comment tells no one until a moderator lets it through.
    const held = comment.status === CommentStatus.HELD;
    const added = async (sql: SqlRunner) => {
      if ((await sql.run(this.statements.insert, comment)) === 0) return false;
      if (!held) await this.webhooks?.commentCreated(sql, comment);
      return true;
    };
    const notifications = held ? undefined : this.notifications;
    await (notifications?.commentAdded(post, comment, answered?.comment.authorId ?? null, added) ??
      this.sql.transaction(added));
    this.events.commentAdded(comment.id, postId);
    return comment;
  }

  /**
   * Whether a new account's comment is held for review: with HOLD_NEW_ACCOUNT_LINKS, when it
   * links anywhere (its sanitised HTML keeps a link).
   */
  private held(viewer: NonNullable<Viewer>, textHtml: string): boolean {
    if (this.holdLinksMs === 0 || !textHtml.includes('<a ')) return false;
    return Date.now() - viewer.createdAt.getTime() < this.holdLinksMs;
  }

  /**
   * Hides a published comment (`hidden`), or shows a hidden or held one again, for moderation,
   * which decides who may; open pages learn of it through `commentUpdated`, once `sql` has
   * committed (an event reads the row when it is delivered). Runs on `sql` (a moderation
   * transaction) or on its own. The comment as it is then; null when there is none.
   */
  async setHidden(id: string, hidden: boolean, sql: SqlRunner = this.sql): Promise<Comment | null> {
    const changed = await sql.run(hidden ? this.statements.hide : this.statements.restore, { id });
    const row = await sql.one(this.statements.byId, { id });
    const comment = row && toComment(row);
    if (comment && changed > 0) {
      sql.afterCommit(() => this.events.commentUpdated(comment.id, comment.postId));
    }
    return comment;
  }

  /** The comment `parentId` answers, which must be on `post`, shown to the viewer, and not deleted. */
  private async answered(parentId: string, post: Post, viewer: Viewer): Promise<Answered> {
    const row = await this.sql.one(this.statements.byId, { id: parentId.toLowerCase() });
    const parent = row && toComment(row);
    if (!parent || parent.postId !== post.id || !seesComment(parent, viewer)) {
      throw badUserInput('parentId must be a comment of the same post.', 'parentId');
    }
    return { comment: parent, threadId: parent.parentId ?? parent.id };
  }

  /** Edits a comment: its author alone, and not once it is deleted. */
  async update(id: string, text: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to edit a comment.');
    const comment = await this.visible(id, viewer);
    if (comment.authorId !== viewer.id) throw forbidden('Only its author may edit a comment.');
    const edited = { id: comment.id, text, textHtml: renderCommentText(text).html, at: new Date() };
    if ((await this.sql.run(this.statements.updateText, edited)) === 0) throw notFound('Comment');
    this.events.commentUpdated(comment.id, comment.postId);
    return Object.assign(comment, { text, textHtml: edited.textHtml, editedAt: edited.at });
  }

  /**
   * Deletes a comment: its author, the post's author or a moderator may. A top-level comment
   * with replies becomes a tombstone (no text, no author, no likes) that keeps its thread; any
   * other goes, and a tombstone whose last reply it was goes with it.
   */
  async delete(id: string, viewer: Viewer): Promise<string> {
    if (!viewer) throw unauthenticated('You must be signed in to delete a comment.');
    const row = await this.sql.one(this.statements.byId, { id });
    const comment = row && toComment(row);
    if (!comment || comment.status === CommentStatus.DELETED) throw notFound('Comment');
    if (comment.authorId !== viewer.id && !isCommentModerator(viewer)) {
      const post = await this.posts.findVisible(comment.postId, viewer);
      if (post?.authorId !== viewer.id || !seesComment(comment, viewer)) {
        throw forbidden(
          "Only the comment's author, the post's author or a moderator may delete it.",
        );
      }
    }
    const remove = async (sql: SqlRunner) => {
      const keep = comment.parentId === null && (await sql.one(this.statements.hasReplies, { id }));
      if (keep) {
        await sql.run(this.statements.tombstone, { id });
        await sql.run(this.statements.forgetLikes, { id });
      } else {
        await sql.run(this.statements.delete, { id });
        if (comment.parentId) {
          await sql.run(this.statements.deleteBareTombstone, { id: comment.parentId });
        }
      }
      return true;
    };
    await (this.notifications?.commentRemoved(comment.id, remove) ?? this.sql.transaction(remove));
    this.events.commentUpdated(comment.id, comment.postId, {
      id: comment.id,
      postId: comment.postId,
      parentId: comment.parentId,
      inReplyToId: comment.inReplyToId,
      authorId: comment.authorId,
      createdAt: comment.createdAt.toISOString(),
    });
    return id;
  }

  /** Likes a comment the viewer sees; liking twice leaves one like. */
  async like(id: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to like a comment.');
    const comment = await this.likeable(id, viewer);
    const like = { commentId: comment.id, userId: viewer.id, createdAt: new Date() };
    const liked = async (sql: SqlRunner) => {
      if ((await sql.run(this.statements.like, like)) === 0) return false;
      await sql.run(this.statements.addLikes, { id: comment.id, delta: 1 });
      return true;
    };
    await (this.notifications?.commentLiked(comment, viewer.id, liked) ??
      this.sql.transaction(liked));
    return this.reread(comment);
  }

  /** Takes back a like; unliking twice changes nothing. */
  async unlike(id: string, viewer: Viewer): Promise<Comment> {
    if (!viewer) throw unauthenticated('You must be signed in to unlike a comment.');
    const comment = await this.likeable(id, viewer);
    const unlike = { commentId: comment.id, userId: viewer.id };
    const unliked = async (sql: SqlRunner) => {
      if ((await sql.run(this.statements.unlike, unlike)) === 0) return false;
      await sql.run(this.statements.addLikes, { id: comment.id, delta: -1 });
      return true;
    };
    await (this.notifications?.commentUnliked(comment, viewer.id, unliked) ??
      this.sql.transaction(unliked));
    return this.reread(comment);
  }

  /** `comment` as it is now: its likes counted by other writers too. */
  private async reread(comment: Comment): Promise<Comment> {
    const row = await this.sql.one(this.statements.byId, { id: comment.id });
    return row ? toComment(row) : comment;
  }

  /** A comment the viewer sees, on a post they see: NOT_FOUND otherwise. */
  private async visible(id: string, viewer: Viewer): Promise<Comment> {
    const row = await this.sql.one(this.statements.byId, { id });
    const comment = row && toComment(row);
    if (!comment || !seesComment(comment, viewer)) throw notFound('Comment');
    if (!(await this.posts.findVisible(comment.postId, viewer))) throw notFound('Comment');
    return comment;
  }

  /** A comment the viewer may like: shown to them, on a published post. */
  private async likeable(id: string, viewer: Viewer): Promise<Comment> {
    const comment = await this.visible(id, viewer);
    await this.posts.findPublished(comment.postId, viewer);
    return comment;
  }

  async findByIds(ids: readonly string[]): Promise<Comment[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toComment);
  }

  /** A page of comments, oldest first, for each post, in one statement. */
  async listByPosts(
    postIds: readonly string[],
    page: Page,
    viewer: Viewer,
  ): Promise<Map<string, Comment[]>> {
    if (page.first === 0 || postIds.length === 0) return groupBy(postIds, [], () => '');
    const who = viewerParameters(viewer);
    const rows = page.after
      ? await this.sql.all(this.statements.pagesByPostsAfter, {
          ...who,
          postIds,
          first: page.first,
          after: page.after,
        })
      : await this.sql.all(this.statements.pagesByPosts, { ...who, first: page.first, postIds });
    return groupBy(postIds, rows.map(toComment), (comment) => comment.postId);
  }

  /**
   * A page of each post's top-level comments in `order` (one more than `page.first`, to tell
   * whether another page follows), with their authors, the viewer's likes and reply counts;
   * `counted`, with the post's threads counted too.
   */
  async threadsOf(
    postIds: readonly string[],
    order: ThreadOrder,
    page: ThreadPage,
    viewer: Viewer,
    counted = false,
  ): Promise<Map<string, ThreadComment[]>> {
    const s = this.statements;
    const statement = {
      OLDEST: [s.threadsOldest, s.threadsOldestAfter],
      NEWEST: [s.threadsNewest, s.threadsNewestAfter],
      TOP: [s.threadsTop, s.threadsTopAfter],
      OLDEST_COUNTED: [s.threadsOldestCounted, s.threadsOldestAfterCounted],
      NEWEST_COUNTED: [s.threadsNewestCounted, s.threadsNewestAfterCounted],
      TOP_COUNTED: [s.threadsTopCounted, s.threadsTopAfterCounted],
    }[counted ? (`${order}_COUNTED` as const) : order][page.after ? 1 : 0];
    const rows = await this.sql.all(statement, this.pageParameters(postIds, page, viewer));
    return groupBy(postIds, rows.map(toThreadComment), (thread) => thread.comment.postId);
  }

  /** A page of each thread's replies, oldest first (one more than `page.first`). */
  async repliesOf(
    threadIds: readonly string[],
    page: ThreadPage,
    viewer: Viewer,
  ): Promise<Map<string, ThreadComment[]>> {
    const statement = page.after ? this.statements.repliesAfter : this.statements.replies;
    const rows = await this.sql.all(statement, this.pageParameters(threadIds, page, viewer));
    return groupBy(threadIds, rows.map(toThreadComment), (reply) => reply.comment.parentId ?? '');
  }

  private pageParameters(keys: readonly string[], page: ThreadPage, viewer: Viewer) {
    return {
      ...viewerParameters(viewer),
      keys,
      first: page.first + 1,
      ...(page.after ? { afterId: page.after, afterLikes: page.afterLikes ?? 0 } : {}),
    } satisfies ThreadPageParameters;
  }

  /**
   * A post (whoever may see it), its author and its first page of comments, in one statement;
   * null when there is no such post. The page is what {@link listByPosts} reads for it.
   */
  async findPostWithPage(
    id: string,
    page: Page,
    viewer: Viewer,
  ): Promise<{ post: Post; author: User; comments: Comment[] } | null> {
    const rows = await this.sql.all(this.statements.postWithAuthorAndPage, {
      ...viewerParameters(viewer),
      id,
      first: page.first,
    });
    const postRow = rows.find((row) => row.id !== null) as (PostRow & AuthorRow) | undefined;
    if (!postRow) return null;
    const comments = rows.filter((row) => row['comment.id'] !== null).map(toPagedComment);
    return { post: toPost(postRow), author: toAuthor(postRow), comments };
  }

  /** The comments of each post that the viewer sees in its list. */
  async countByPosts(postIds: readonly string[], viewer: Viewer): Promise<Map<string, number>> {
    const who = viewerParameters(viewer);
    return countsByKey(await this.sql.all(this.statements.countByPosts, { ...who, postIds }));
  }

  /** The top-level comments of each post that the viewer sees in its threads. */
  async countThreads(postIds: readonly string[], viewer: Viewer): Promise<Map<string, number>> {
    const who = viewerParameters(viewer);
    return countsByKey(
      await this.sql.all(this.statements.countThreadsByPosts, { ...who, postIds }),
    );
  }

  /** The replies of each thread that the viewer sees. */
  async countReplies(ids: readonly string[], viewer: Viewer): Promise<Map<string, number>> {
    const who = viewerParameters(viewer);
    return countsByKey(await this.sql.all(this.statements.countRepliesByThreads, { ...who, ids }));
  }

  /** The comments among `ids` that `userId` likes. */
  async likedBy(userId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all(this.statements.likedBy, { userId, ids });
    return new Set(rows.map((row) => row.key));
  }
}

function viewerParameters(viewer: Viewer): ViewerParameters {
  return { viewerId: viewer?.id ?? '', moderator: isCommentModerator(viewer) ? 1 : 0 };
}
