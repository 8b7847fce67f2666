import { Field, ID, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { ModerationItem, ReportTargetType } from './moderation-queue-item.entity';
import { ReportReason } from './reports.enums';
import { User } from '../users/user.entity';

/** The longest note a reporter may add, in characters. */
export const REPORT_NOTE_LENGTH = 500;

/**
 * One reader's report of a post or comment, in the moderation item of its target. One per
 * reporter and target, ever: reporting again changes nothing. It goes with its item, and with
 * the reporter's account.
 */
@ObjectType({ description: "One reader's report: who, why, and what they added. Moderators only." })
@Entity('reports')
@Index('UQ_reports_reporter_target', ['reporterId', 'targetType', 'targetId'], { unique: true })
@Index('IDX_reports_item', ['itemId', 'id'])
@Index('IDX_reports_reporter_time', ['reporterId', 'createdAt'])
export class Report {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'item_id', type: 'varchar', length: 36 })
  itemId: string;

  /** Resolved to `reporter` through the per-request user loader. */
  @Column({ name: 'reporter_id', type: 'varchar', length: 36 })
  reporterId: string;

  @Column({ name: 'target_type', type: 'varchar', length: 16 })
  targetType: ReportTargetType;

  @Column({ name: 'target_id', type: 'varchar', length: 36 })
  targetId: string;

  @Field(() => ReportReason)
  @Column({ type: 'varchar', length: 32 })
  reason: ReportReason;

  @Field(() => String, { nullable: true, description: 'What the reporter added, trimmed.' })
  @Column({ type: 'varchar', length: REPORT_NOTE_LENGTH, nullable: true })
  note: string | null;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => ModerationItem, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id', foreignKeyConstraintName: 'FK_reports_item' })
  protected itemRow?: ModerationItem;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'reporter_id', foreignKeyConstraintName: 'FK_reports_reporter' })
  protected reporterRow?: User;
}
