import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { WebhookEvent } from './webhook-event';
import { Webhook } from './webhook.entity';

/** The most of an answer's body that is kept, in bytes. */
export const RESPONSE_SNIPPET_BYTES = 1024;

/** Where an attempt stands; stored as its name. */
export enum DeliveryStatus {
  /** Not made yet: due at `nextAttemptAt` (the outbox). */
  PENDING = 'PENDING',
  /** Answered with a 2xx status. */
  SUCCEEDED = 'SUCCEEDED',
  /** Any other answer (a redirect included), no answer in time, a network error, or a refused address. */
  FAILED = 'FAILED',
  /** Not made: the webhook was disabled before it came due. */
  CANCELLED = 'CANCELLED',
}

/**
 * One attempt to deliver one event to one webhook: the outbox while it is PENDING, the log once
 * made. An event's attempts share its `messageId` (the `webhook-id` header); each failed attempt
 * with a retry left is followed by the next one's PENDING row. Ids are time-ordered.
 */
@ObjectType({
  description:
    'One attempt to deliver an event to a webhook: pending, or made with its outcome. Admins only.',
})
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_due', ['status', 'nextAttemptAt'])
@Index('IDX_webhook_deliveries_webhook', ['webhookId', 'id'])
@Index('IDX_webhook_deliveries_created', ['createdAt'])
export class WebhookDelivery {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'webhook_id', type: 'varchar', length: 36 })
  webhookId: string;

  @Field({
    description:
      'The `webhook-id` header: the same for every attempt of one event, so that receivers can tell a retry from news.',
  })
  @Column({ name: 'message_id', type: 'varchar', length: 64 })
  messageId: string;

  @Field(() => WebhookEvent)
  @Column({ type: 'varchar', length: 32 })
  event: WebhookEvent;

  /** The signed body, the same for every attempt of the event. */
  @Column({ type: 'text' })
  payload: string;

  @Field(() => Int, { description: 'Which attempt of the event this is, from 1.' })
  @Column({ type: 'integer' })
  attempt: number;

  @Field({
    description:
      'Made by redeliverWebhook or testWebhook: sent even to a disabled webhook, never retried, and never counted towards disabling it.',
  })
  @Column({ type: 'boolean', default: false })
  manual: boolean;

  @Field(() => String, {
    description:
      '`PENDING` (not made yet), `SUCCEEDED` (a 2xx answer), `FAILED` (any other answer, a redirect included, no answer in time, a network error or a refused address: see `error`), or `CANCELLED` (the webhook was disabled first).',
  })
  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Field(() => Date, {
    nullable: true,
    description:
      'When the next attempt is due: this one while PENDING, the retry after a failure; null when none follows.',
  })
  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt: Date | null;

  /** While an instance sends it: until when the attempt is that instance's. */
  @Column({ name: 'lease_expires_at', type: Date, nullable: true })
  leaseUntil: Date | null;

  @Field(() => Int, { nullable: true, description: "The answer's HTTP status; null without one." })
  @Column({ name: 'response_code', type: 'integer', nullable: true })
  responseCode: number | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'From the start of the attempt to the end of the answer, in ms; null when no connection was made.',
  })
  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Field(() => String, {
    nullable: true,
    description: `The first ${RESPONSE_SNIPPET_BYTES} bytes of the answer's body, as text.`,
  })
  @Column({
    name: 'response_snippet',
    type: 'varchar',
    length: RESPONSE_SNIPPET_BYTES,
    nullable: true,
  })
  responseSnippet: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Why a FAILED or CANCELLED attempt failed, when no HTTP status says it: a timeout, a network error, a refused address.',
  })
  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** When the event happened: retries stop 24 hours after it. */
  @Column({ name: 'event_at' })
  eventAt: Date;

  @Field({ description: 'When the attempt was written to the outbox.' })
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Field(() => Date, {
    nullable: true,
    description: 'When the attempt was made; null while PENDING.',
  })
  @Column({ name: 'attempted_at', type: Date, nullable: true })
  attemptedAt: Date | null;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhook_deliveries_webhook' })
  protected webhookRow?: Webhook;
}
