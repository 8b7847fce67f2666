import { Comment } from './comment.entity';
import { toDate } from '../common/sql';

/** The select list that {@link toComment} reads, for a `comments` table aliased `alias`. */
export const commentColumns = (alias: string) =>
  `${alias}.id, ${alias}.text, ${alias}.post_id AS "postId", ${alias}.author_id AS "authorId", ` +
  `${alias}.created_at AS "createdAt"`;

export interface CommentRow {
  id: string;
  text: string;
  postId: string;
  authorId: string;
  createdAt: Date | string;
}

export function toComment(row: CommentRow): Comment {
  return Object.assign(new Comment(), { ...row, createdAt: toDate(row.createdAt) });
}
