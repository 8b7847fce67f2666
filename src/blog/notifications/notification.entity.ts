import { Field, ID, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { NotificationKind } from './notification-kind';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';

/**
 * Something that happened to a user (the recipient) or to one of their posts, by another user
 * (the actor). Ids are time-ordered, so the newest has the greatest id.
 */
@ObjectType({ description: 'Something another user did that concerns the viewer.' })
@Entity('notifications')
@Index('IDX_notifications_recipient', ['recipientId', 'id'])
@Index('IDX_notifications_post', ['postId'])
@Index('IDX_notifications_actor_post', ['actorId', 'postId'])
@Index('IDX_notifications_comment', ['commentId'])
export class Notification {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'recipient_id', type: 'varchar', length: 36 })
  recipientId: string;

  /** Resolved to `actor` through the per-request user loader. */
  @Column({ name: 'actor_id', type: 'varchar', length: 36 })
  actorId: string;

  @Field(() => NotificationKind)
  @Column({ type: 'varchar', length: 32 })
  kind: NotificationKind;

  /** Resolved to `post` through the per-request post loader; null for FOLLOWED. */
  @Column({ name: 'post_id', type: 'varchar', length: 36, nullable: true })
  postId: string | null;

  /**
   * The comment a POST_COMMENTED, COMMENT_REPLIED (the reply) or COMMENT_LIKED names (null for the
   * others, and for older ones): deleting it withdraws this.
   */
  @Column({ name: 'comment_id', type: 'varchar', length: 36, nullable: true })
  commentId: string | null;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Column({ name: 'read_at', type: Date, nullable: true })
  readAt: Date | null;

  @Field({ description: 'Whether markNotificationsRead has covered it.' })
  read: boolean;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'recipient_id', foreignKeyConstraintName: 'FK_notifications_recipient' })
  protected recipientRow?: User;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_notifications_actor' })
  protected actorRow?: User;

  @ManyToOne(() => Post, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_notifications_post' })
  protected postRow?: Post;

  /** By name: the comments feature tells of its comments through this one. */
  @ManyToOne('Comment', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_notifications_comment' })
  protected commentRow?: object;
}
