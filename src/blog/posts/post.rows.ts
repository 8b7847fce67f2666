import { Post } from './post.entity';
import { toDate } from '../common/sql';

/** The select list that {@link toPost} reads, for a `posts` table aliased `alias`. */
export const postColumns = (alias: string) =>
  `${alias}.id, ${alias}.title, ${alias}.content, ${alias}.author_id AS "authorId", ` +
  `${alias}.created_at AS "createdAt", ${alias}.updated_at AS "updatedAt", ` +
  `${alias}.published_at AS "publishedAt"`;

export interface PostRow {
  id: string;
  title: string;
  content: string;
  authorId: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  publishedAt: Date | string | null;
}

export function toPost(row: PostRow): Post {
  return Object.assign(new Post(), {
    id: row.id,
    title: row.title,
    content: row.content,
    authorId: row.authorId,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    publishedAt: toDate(row.publishedAt),
  });
}
