import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { WebhookEvent } from './webhook-event';
import { User } from '../users/user.entity';

/** The longest target URL, in characters. */
export const WEBHOOK_URL_LENGTH = 2048;
/** The longest description, in characters. */
export const WEBHOOK_DESCRIPTION_LENGTH = 500;

/**
 * An address that is told of events, signed with a secret of its own. The secret is stored
 * sealed (see webhook-secrets.ts) and never read back through the API: `createWebhook` and
 * `rotateWebhookSecret` show it once.
 */
@ObjectType({
  description: 'An address told of events by signed HTTP POSTs (Standard Webhooks). Admins only.',
})
@Entity('webhooks')
@Index('IDX_webhooks_created_by', ['createdBy'])
export class Webhook {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Field({ description: 'Where the deliveries are POSTed.' })
  @Column({ type: 'varchar', length: WEBHOOK_URL_LENGTH })
  url: string;

  /** Stored as `,POST_PUBLISHED,POST_UPDATED,`: the outbox finds subscribers by `,NAME,`. */
  @Column({ name: 'events', type: 'varchar', length: 255 })
  eventList: string;

  @Field(() => [WebhookEvent], { description: 'The events it is told of.' })
  events: WebhookEvent[];

  @Field(() => String, { nullable: true })
  @Column({ type: 'varchar', length: WEBHOOK_DESCRIPTION_LENGTH, nullable: true })
  description: string | null;

  /** Sealed: see webhook-secrets.ts. */
  @Column({ type: 'varchar', length: 200 })
  secret: string;

  /** The secret before the last rotation, still signing beside the new one until `previousSecretUntil`. */
  @Column({ name: 'previous_secret', type: 'varchar', length: 200, nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: Date, nullable: true })
  previousSecretUntil: Date | null;

  @Field({
    description:
      'Whether events are delivered. A webhook is disabled after WEBHOOK_DISABLE_AFTER events in a row failed; updateWebhook enables it again.',
  })
  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Field(() => Int, {
    description:
      'Events in a row whose every attempt failed; a success sets it back to 0, and so does enabling the webhook.',
  })
  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures: number;

  /** The admin who created it; null once their account is gone. */
  @Column({ name: 'created_by', type: 'varchar', length: 36, nullable: true })
  createdBy: string | null;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Field()
  @Column({ name: 'updated_at' })
  updatedAt: Date;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_webhooks_created_by' })
  protected creatorRow?: User;
}
