import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { PostReviewState } from './post-review';
import { textFieldCost } from '../common/response-size';
import { newId } from '../common/uuid';
import { User } from '../users/user.entity';
import { CONTENT_LENGTH } from './dto/create-post.input';

/** A blog post; a draft until `publishedAt` is set. */
@ObjectType({ description: 'A blog post.' })
@Entity('posts')
@Index('IDX_posts_published', ['publishedAt', 'id'])
@Index('IDX_posts_author_published', ['authorId', 'publishedAt', 'id'])
@Index('IDX_posts_slug', ['slug'], { unique: true })
@Index('IDX_posts_scheduled', ['scheduledAt', 'id'])
@Index('IDX_posts_review', ['reviewState', 'reviewRequestedAt', 'id'])
@Index('IDX_posts_cover_image', ['coverImageId'])
export class Post {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Field()
  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** Costs by its longest length (see textFieldCost); its resolver charges the answer's budget. */
  @Field({ complexity: textFieldCost(CONTENT_LENGTH.max) })
  @Column({ type: 'text' })
  content: string;

  /** Resolved to `author` through the per-request user loader. */
  @Column({ name: 'author_id', type: 'varchar', length: 36 })
  authorId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_posts_author' })
  protected authorRow?: User;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Field()
  @Column({ name: 'updated_at' })
  updatedAt: Date;

  @Field(() => Date, { nullable: true, description: 'Null while the post is a draft.' })
  @Column({ name: 'published_at', type: Date, nullable: true })
  publishedAt: Date | null;

  /** Null only between the migration's column and its fill (1765005000000); always set after. */
  @Field(() => String, {
    description: "The post's address in URLs, unique across posts (see `postBySlug`).",
  })
  @Column({ type: 'varchar', length: 100, nullable: true })
  slug: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When a scheduled post publishes itself; null unless `status` is SCHEDULED.',
  })
  @Column({ name: 'scheduled_at', type: Date, nullable: true })
  scheduledAt: Date | null;

  /** The excerpt as answered: the author's own, or the start of the text (see postCard). */
  @Field(() => String, {
    description:
      "A summary for cards and feeds: the author's own, or the first 200 characters of `contentText`, cut at a word.",
  })
  @Column({ type: 'varchar', length: 300, nullable: true })
  excerpt: string;

  /** The excerpt the author wrote, kept so that an edit of the content keeps it. */
  @Column({ name: 'custom_excerpt', type: 'varchar', length: 300, nullable: true })
  customExcerpt: string | null;

  /**
   * Rendered from `content` on write (see renderPostContent). Read through the post bodies
   * loader for `contentHtml`, never with the post: undefined on the posts the service reads.
   */
  @Column({ name: 'content_html', type: 'text', nullable: true })
  renderedHtml?: string;

  /** The plain text of `content_html`; see {@link renderedHtml}. */
  @Column({ name: 'content_text', type: 'text', nullable: true })
  renderedText?: string;

  /** The headings of `content_html`, as JSON; see {@link renderedHtml}. */
  @Column({ name: 'toc', type: 'text', nullable: true })
  tocJson?: string;

  @Field(() => Int, { description: 'The words of `contentText`.' })
  @Column({ name: 'word_count', type: 'integer', nullable: true })
  wordCount: number;

  /** A cover given by URL; null when the cover is an uploaded image (`coverImageId`). */
  @Column({ name: 'cover_url', type: 'varchar', length: 2048, nullable: true })
  coverUrl: string | null;

  /**
   * An uploaded image of the author's as the cover: its URL is made when the post is read, from
   * the storage in use (see ImageUses.coverOf), so it follows a change of the public base URL.
   */
  @Column({ name: 'cover_image_id', type: 'varchar', length: 36, nullable: true })
  coverImageId: string | null;

  @Column({ name: 'cover_alt', type: 'varchar', length: 300, nullable: true })
  coverAlt: string | null;

  @Column({ name: 'cover_caption', type: 'varchar', length: 500, nullable: true })
  coverCaption: string | null;

  @Column({ name: 'seo_title', type: 'varchar', length: 200, nullable: true })
  seoTitle: string | null;

  @Column({ name: 'seo_description', type: 'varchar', length: 500, nullable: true })
  seoDescription: string | null;

  @Column({ name: 'seo_canonical_url', type: 'varchar', length: 2048, nullable: true })
  seoCanonicalUrl: string | null;

  /** Answered through PostsResolver.reviewState, to the author and editors only. */
  @Column({ name: 'review_state', type: 'varchar', length: 16, nullable: true })
  reviewState: PostReviewState | null;

  /** When the post was last submitted for review: the order of the review queue. */
  @Column({ name: 'review_requested_at', type: Date, nullable: true })
  reviewRequestedAt: Date | null;

  /** Why an editor sent the post back; answered as `reviewState` is. */
  @Column({ name: 'rejection_reason', type: 'varchar', length: 500, nullable: true })
  rejectionReason: string | null;

  /** When its comments were locked; answered as `commentsLocked`. */
  @Column({ name: 'comments_locked_at', type: Date, nullable: true })
  commentsLockedAt: Date | null;

  /**
   * When moderation hid the post (a report resolved, or the auto-hide rule): it is then a draft
   * that its author cannot publish, and `hiddenPublishedAt` keeps the time it gets back.
   */
  @Column({ name: 'hidden_at', type: Date, nullable: true })
  hiddenAt: Date | null;

  @Column({ name: 'hidden_published_at', type: Date, nullable: true })
  protected hiddenPublishedAt?: Date | null;

  @BeforeInsert()
  protected assignIdAndTimestamps(): void {
    this.id ??= newId();
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }
}
