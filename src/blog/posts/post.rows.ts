import { PostReviewState } from './post-review';
import { Post } from './post.entity';
import { toDate } from '../common/sql';

/**
 * The select list that {@link toPost} reads, for a `posts` table aliased `alias`; without the
 * content (the post's largest value) when `content` is false.
 */
export const postColumns = (alias: string, { content = true } = {}) =>
  `${alias}.id, ${alias}.title, ${content ? `${alias}.content, ` : ''}` +
  `${alias}.author_id AS "authorId", ${alias}.created_at AS "createdAt", ` +
  `${alias}.updated_at AS "updatedAt", ${alias}.published_at AS "publishedAt", ` +
  `${alias}.slug, ${alias}.scheduled_at AS "scheduledAt", ${alias}.excerpt, ` +
  `${alias}.custom_excerpt AS "customExcerpt", ${alias}.word_count AS "wordCount", ` +
  `${alias}.cover_url AS "coverUrl", ${alias}.cover_image_id AS "coverImageId", ` +
  `${alias}.cover_alt AS "coverAlt", ` +
  `${alias}.cover_caption AS "coverCaption", ${alias}.seo_title AS "seoTitle", ` +
  `${alias}.seo_description AS "seoDescription", ${alias}.seo_canonical_url AS "seoCanonicalUrl", ` +
  `${alias}.review_state AS "reviewState", ${alias}.review_requested_at AS "reviewRequestedAt", ` +
  `${alias}.rejection_reason AS "rejectionReason", ` +
  `${alias}.comments_locked_at AS "commentsLockedAt", ${alias}.hidden_at AS "hiddenAt"`;

/**
 * The fields of Post that read nothing of a post's content: a list whose selection asks for
 * these alone is read without it (see PostsService.listByAuthors). A field missing here, such as
 * one a host app adds, makes the list read the content. So does `comments`: their posts are
 * loaded by id, and answered from the list only when it read them whole.
 */
export const FIELDS_WITHOUT_CONTENT: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'title',
  'author',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'commentsCount',
  'likesCount',
  'isLikedByMe',
  'isBookmarkedByMe',
  'tags',
  'slug',
  'previousSlugs',
  'url',
  'status',
  'scheduledAt',
  'excerpt',
  'readingTimeMinutes',
  'wordCount',
  'coverImage',
  'seo',
  'reviewState',
  'rejectionReason',
  'commentsLocked',
  'hiddenAt',
  // Read through the post bodies loader, never from the list's rows.
  'contentHtml',
  'contentText',
  'toc',
]);

export interface PostRow {
  id: string;
  title: string;
  content: string;
  authorId: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  publishedAt: Date | string | null;
  slug: string;
  scheduledAt: Date | string | null;
  excerpt: string;
  customExcerpt: string | null;
  wordCount: number | string;
  coverUrl: string | null;
  coverImageId: string | null;
  coverAlt: string | null;
  coverCaption: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  seoCanonicalUrl: string | null;
  reviewState: string | null;
  reviewRequestedAt: Date | string | null;
  rejectionReason: string | null;
  commentsLockedAt: Date | string | null;
  hiddenAt: Date | string | null;
}

/** A post read without its content (see {@link postColumns}). */
export type PostSummaryRow = Omit<PostRow, 'content'>;

/** The post of `row`; read without its content, the post has none (`content` is undefined). */
export function toPost(row: PostRow | PostSummaryRow): Post {
  return Object.assign(new Post(), {
    id: row.id,
    title: row.title,
    content: (row as Partial<PostRow>).content as string,
    authorId: row.authorId,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    publishedAt: toDate(row.publishedAt),
    slug: row.slug,
    scheduledAt: toDate(row.scheduledAt),
    excerpt: row.excerpt ?? '',
    customExcerpt: row.customExcerpt,
    wordCount: Number(row.wordCount ?? 0),
    coverUrl: row.coverUrl,
    coverImageId: row.coverImageId,
    coverAlt: row.coverAlt,
    coverCaption: row.coverCaption,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    seoCanonicalUrl: row.seoCanonicalUrl,
    reviewState: row.reviewState as PostReviewState | null,
    reviewRequestedAt: toDate(row.reviewRequestedAt),
    rejectionReason: row.rejectionReason,
    commentsLockedAt: toDate(row.commentsLockedAt),
    hiddenAt: toDate(row.hiddenAt),
  });
}
