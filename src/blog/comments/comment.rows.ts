import { Comment } from './comment.entity';
import { prefixedColumns, toDate } from '../common/sql';

/** The select list that {@link toComment} reads, for a `comments` table aliased `alias`. */
export const commentColumns = (alias: string) =>
  `${alias}.id, ${alias}.text, ${alias}.text_html AS "textHtml", ${alias}.post_id AS "postId", ` +
  `${alias}.author_id AS "authorId", ${alias}.created_at AS "createdAt"`;

export interface CommentRow {
  id: string;
  text: string;
  textHtml: string | null;
  postId: string;
  authorId: string;
  createdAt: Date | string;
}

export function toComment(row: CommentRow): Comment {
  return Object.assign(new Comment(), {
    ...row,
    textHtml: row.textHtml ?? '',
    createdAt: toDate(row.createdAt),
  });
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
  });
}
