import { CommentStatus } from './comment-status';
import { Comment } from './comment.entity';
import { prefixedColumns, toDate } from '../common/sql';
import { User } from '../users/user.entity';
import { AUTHOR_COLUMNS, AuthorRow, toAuthor } from '../users/user.rows';

/** The select list that {@link toComment} reads, for a `comments` table aliased `alias`. */
export const commentColumns = (alias: string) =>
  `${alias}.id, ${alias}.text, ${alias}.text_html AS "textHtml", ${alias}.post_id AS "postId", ` +
  `${alias}.author_id AS "authorId", ${alias}.created_at AS "createdAt", ` +
  `${alias}.parent_id AS "parentId", ${alias}.in_reply_to_id AS "inReplyToId", ` +
  `${alias}.status, ${alias}.edited_at AS "editedAt", ${alias}.likes_count AS "likesCount"`;

export interface CommentRow {
  id: string;
  text: string;
  textHtml: string | null;
  postId: string;
  authorId: string;
  createdAt: Date | string;
  parentId: string | null;
  inReplyToId: string | null;
  status: string;
  editedAt: Date | string | null;
  likesCount: number | string;
}

export function toComment(row: CommentRow): Comment {
  return Object.assign(new Comment(), {
    ...row,
    textHtml: row.textHtml ?? '',
    createdAt: toDate(row.createdAt),
    editedAt: row.editedAt === null ? null : toDate(row.editedAt),
    status: row.status as CommentStatus,
    likesCount: Number(row.likesCount),
  });
}

/**
 * A comment of a thread as a page reads it: its row, its author's, whether the viewer likes it
 * and (top-level comments) how many replies the viewer sees.
 */
export type ThreadCommentRow = CommentRow &
  AuthorRow & {
    likedByMe: boolean | number;
    repliesCount?: number | string;
    threadsCount?: number | string;
  };

/** What a page of threads knows of each comment beyond its row. */
export interface ThreadComment {
  comment: Comment;
  author: User;
  likedByMe: boolean;
  /** Top-level comments: the replies the viewer sees. */
  repliesCount?: number;
  /** A counted page of threads: the threads of the comment's post that the viewer sees. */
  threadsCount?: number;
}

/** The select list of {@link ThreadCommentRow}, with users aliased `u`. */
export const THREAD_COMMENT_COLUMNS = (likedBy: string) =>
  `${commentColumns('c')}, ${AUTHOR_COLUMNS}, ${likedBy} AS "likedByMe"`;

export function toThreadComment(row: ThreadCommentRow): ThreadComment {
  return {
    comment: toComment(row),
    author: toAuthor(row),
    likedByMe: Boolean(row.likedByMe),
    ...(row.repliesCount === undefined ? {} : { repliesCount: Number(row.repliesCount) }),
    ...(row.threadsCount === undefined ? {} : { threadsCount: Number(row.threadsCount) }),
  };
}

/**
 * {@link commentColumns} named `comment.<field>`, for a statement that reads comments in the rows
 * of something else (see `postWithAuthorAndPage`); {@link toPagedComment} reads them.
 */
export const PAGED_COMMENT_COLUMNS = prefixedColumns(commentColumns('c'), 'comment');

export type PagedCommentRow = { [K in keyof CommentRow as `comment.${K}`]: CommentRow[K] | null };

export function toPagedComment(row: PagedCommentRow): Comment {
  return toComment({
    id: row['comment.id']!,
    text: row['comment.text']!,
    textHtml: row['comment.textHtml'],
    postId: row['comment.postId']!,
    authorId: row['comment.authorId']!,
    createdAt: row['comment.createdAt']!,
    parentId: row['comment.parentId'],
    inReplyToId: row['comment.inReplyToId'],
    status: row['comment.status']!,
    editedAt: row['comment.editedAt'],
    likesCount: row['comment.likesCount']!,
  });
}
