import { Field, ID, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { ModerationTargetType } from './moderation-action';
import { ReportAction, ReportStatus } from './reports.enums';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';

/** Reads and writes `moderation_items.status` for TypeORM: `open` is ReportStatus.OPEN. */
const STATUS_COLUMN = {
  from: (stored: string | null) => (stored === null ? null : stored.toUpperCase()),
  to: (status: ReportStatus | undefined) => status?.toLowerCase(),
};

/** What a moderation item is about: a post or a comment. */
export type ReportTargetType = ModerationTargetType.POST | ModerationTargetType.COMMENT;

/**
 * The reports of one post or comment, grouped for the moderation queue: open until a moderator
 * resolves it, and at most one open per target (a partial unique index), so that reports made
 * after a resolution open a new item. It goes with its post (the post reported, or the
 * comment's): ON DELETE CASCADE, reports included. Ids are time-ordered.
 */
@ObjectType({
  description:
    'The reports of one post or comment, grouped: an entry of the moderation queue. Moderators only.',
})
@Entity('moderation_items')
@Index('UQ_moderation_items_open_target', ['targetType', 'targetId'], {
  unique: true,
  where: "status = 'open'",
})
@Index('IDX_moderation_items_status', ['status', 'id'])
@Index('IDX_moderation_items_resolved', ['status', 'resolvedAt', 'id'])
@Index('IDX_moderation_items_post', ['postId'])
@Index('IDX_moderation_items_resolved_by', ['resolvedById'])
export class ModerationItem {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Resolved, with `targetId`, to `target`. */
  @Column({ name: 'target_type', type: 'varchar', length: 16 })
  targetType: ReportTargetType;

  @Column({ name: 'target_id', type: 'varchar', length: 36 })
  targetId: string;

  /** The post reported, or the post of the comment reported. */
  @Column({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  /** Stored in lower case (`open`), as the partial unique index names it. */
  @Field(() => ReportStatus)
  @Column({ type: 'varchar', length: 16, transformer: STATUS_COLUMN })
  status: ReportStatus;

  @Field(() => ReportAction, {
    nullable: true,
    description: 'What the moderator decided; null while open.',
  })
  @Column({ type: 'varchar', length: 16, nullable: true })
  action: ReportAction | null;

  /** Resolved to `resolvedBy`; null while open, or once the moderator's account is gone. */
  @Column({ name: 'resolved_by', type: 'varchar', length: 36, nullable: true })
  resolvedById: string | null;

  @Field({ description: 'When the first of its reports came.' })
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'When a moderator resolved it.' })
  @Column({ name: 'resolved_at', type: Date, nullable: true })
  resolvedAt: Date | null;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_moderation_items_post' })
  protected postRow?: Post;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'resolved_by', foreignKeyConstraintName: 'FK_moderation_items_resolved_by' })
  protected resolverRow?: User;
}
