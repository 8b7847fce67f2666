import { Field, ID, ObjectType } from '@nestjs/graphql';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { ModerationAction, ModerationTargetType } from './moderation-action';
import { User } from '../users/user.entity';

/**
 * One moderation action: who did what to what, why and when. Kept when its target is deleted
 * (the target is named by kind and id, with a short summary of it at the time); its actor goes
 * to null when their account is deleted. Ids are time-ordered.
 */
@ObjectType({ description: 'One moderation action: who, what, why and when. Admins only.' })
@Entity('moderation_log')
export class ModerationLogEntry {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Resolved to `actor`; null for the auto-hide rule, or once the actor's account is gone. */
  @Column({ name: 'actor_id', type: 'varchar', length: 36, nullable: true })
  actorId: string | null;

  @Field(() => ModerationAction)
  @Column({ type: 'varchar', length: 32 })
  action: ModerationAction;

  @Field(() => ModerationTargetType)
  @Column({ name: 'target_type', type: 'varchar', length: 16 })
  targetType: ModerationTargetType;

  @Field(() => ID, { description: 'The id of the post, comment or user, which may be gone.' })
  @Column({ name: 'target_id', type: 'varchar', length: 36 })
  targetId: string;

  @Field(() => String, { nullable: true, description: 'Why, as the moderator gave it.' })
  @Column({ type: 'varchar', length: 1000, nullable: true })
  reason: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "What the target was at the time: a post's title, a comment's first words, a handle.",
  })
  @Column({ type: 'varchar', length: 200, nullable: true })
  summary: string | null;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_moderation_log_actor' })
  protected actorRow?: User;
}
