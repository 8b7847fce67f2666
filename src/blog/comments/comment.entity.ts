import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { CommentStatus } from './comment-status';
import { textFieldCost } from '../common/response-size';
import { newId } from '../common/uuid';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';
import { COMMENT_LENGTH } from './dto/add-comment.args';

/**
 * A reader's comment on a published post: top-level, or a reply in the thread of a top-level
 * comment (two levels, as Ghost has them).
 */
@ObjectType({ description: 'A comment on a post.' })
@Entity('comments')
@Index('IDX_comments_post', ['postId', 'id'])
@Index('IDX_comments_author', ['authorId'])
@Index('IDX_comments_threads', ['postId', 'parentId', 'id'])
@Index('IDX_comments_top_threads', ['postId', 'parentId', 'likesCount', 'id'])
@Index('IDX_comments_replies', ['parentId', 'id'])
@Index('IDX_comments_in_reply_to', ['inReplyToId'])
export class Comment {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Costs by its longest length (see textFieldCost); its resolver charges the answer's budget. */
  @Field({ complexity: textFieldCost(COMMENT_LENGTH.max) })
  @Column({ type: 'text' })
  text: string;

  /** Rendered from `text` on write, with the comments' allow-list (no headings, no images). */
  @Field({
    complexity: textFieldCost(2 * COMMENT_LENGTH.max),
    description: 'The text rendered to HTML on write and sanitised: safe to insert into a page.',
  })
  @Column({ name: 'text_html', type: 'text', nullable: true })
  textHtml: string;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  /** Resolved to `post` through the per-request post loader. */
  @Column({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  /** Resolved to `author` through the per-request user loader. */
  @Column({ name: 'author_id', type: 'varchar', length: 36 })
  authorId: string;

  /** The top-level comment whose thread this reply is in; null for a top-level comment. */
  @Column({ name: 'parent_id', type: 'varchar', length: 36, nullable: true })
  parentId: string | null;

  /** The comment this reply answers: its top-level comment, or a reply in the same thread. */
  @Column({ name: 'in_reply_to_id', type: 'varchar', length: 36, nullable: true })
  inReplyToId: string | null;

  @Field(() => CommentStatus)
  @Column({ type: 'varchar', length: 16, default: CommentStatus.PUBLISHED })
  status: CommentStatus;

  @Field(() => Date, { nullable: true, description: 'When its author last edited it.' })
  @Column({ name: 'edited_at', type: Date, nullable: true })
  editedAt: Date | null;

  /** Kept with each like and unlike, so that threads can be ordered by it. */
  @Field(() => Int)
  @Column({ name: 'likes_count', type: 'integer', default: 0 })
  likesCount: number;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_comments_parent' })
  protected parentRow?: Comment;

  @ManyToOne(() => Comment, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'in_reply_to_id', foreignKeyConstraintName: 'FK_comments_in_reply_to' })
  protected inReplyToRow?: Comment;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_comments_post' })
  protected postRow?: Post;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_comments_author' })
  protected authorRow?: User;

  @BeforeInsert()
  protected assignIdAndTimestamp(): void {
    this.id ??= newId();
    this.createdAt ??= new Date();
    this.parentId ??= null;
    this.inReplyToId ??= null;
    this.status ??= CommentStatus.PUBLISHED;
    this.editedAt ??= null;
    this.likesCount ??= 0;
  }
}
