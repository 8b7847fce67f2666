import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A mail of the outbox (see MailOutbox): pending while `nextAttemptAt` is set, leased to one
 * sender until `leaseExpiresAt` while it is being sent. Sent and given-up mails keep no body.
 */
@Entity('mail_outbox')
@Index('IDX_mail_outbox_due', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
@Index('IDX_mail_outbox_created', ['createdAt'])
export class OutboxMail {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** What the mail is (`password_reset`, `email_verification`), for the logs. */
  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ type: 'varchar', length: 254 })
  recipient: string;

  @Column({ type: 'varchar', length: 200 })
  subject: string;

  @Column({ type: 'text', nullable: true })
  text: string | null;

  @Column({ type: 'text', nullable: true })
  html: string | null;

  /** JSON: header name to value (`Auto-Submitted`). */
  @Column({ type: 'text' })
  headers: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'lease_expires_at', type: Date, nullable: true })
  leaseExpiresAt: Date | null;

  @Column({ name: 'sent_at', type: Date, nullable: true })
  sentAt: Date | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
