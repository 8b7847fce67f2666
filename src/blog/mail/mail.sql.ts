import { statement } from '../common/sql';

/** A mail the worker has claimed, as the claim returns it. */
export interface ClaimedMailRow {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text: string | null;
  html: string | null;
  /** JSON: header name to value. */
  headers: string;
  /** Attempts so far, this one included. */
  attempts: number | string;
}

/**
 * The start of the worker's look for mails due, which runs every few seconds outside any
 * request (the statement counter of the tests leaves it out).
 */
export const DUE_MAIL = 'SELECT m.id FROM mail_outbox m WHERE m.next_attempt_at IS NOT NULL';

/** Due, and not held by a sender: never claimed, or its claimant's lease has run out. */
const CLAIMABLE =
  'm.next_attempt_at <= :now AND (m.lease_expires_at IS NULL OR m.lease_expires_at <= :now)';

const NEXT_DUE = `SELECT m.id FROM mail_outbox m WHERE ${CLAIMABLE} ORDER BY m.next_attempt_at, m.id LIMIT 1`;

const CLAIM = (next: string) =>
  'UPDATE mail_outbox SET lease_expires_at = :leaseUntil, attempts = attempts + 1 ' +
  `WHERE id = (${next}) ` +
  'RETURNING id, kind, recipient, subject, text, html, headers, attempts';

/**
 * The mail outbox. A row is pending while `next_attempt_at` is set; a claim leases it to one
 * sender until `lease_expires_at`, so that a sender that dies mid-send leaves it to another once
 * the lease has run out. Sent and given-up rows keep no body: it holds a token's link.
 */
export const mailSql = {
  enqueue: statement<{
    id: string;
    kind: string;
    recipient: string;
    subject: string;
    text: string;
    html: string;
    headers: string;
    now: Date;
  }>(
    'INSERT INTO mail_outbox (id, kind, recipient, subject, text, html, headers, attempts, ' +
      'next_attempt_at, created_at) VALUES (:id, :kind, :recipient, :subject, :text, :html, ' +
      ':headers, 0, :now, :now)',
  ),
  /** Whether any mail is due that no sender holds. */
  anyDue: statement<{ now: Date }, { id: string }>(`${DUE_MAIL} AND ${CLAIMABLE} LIMIT 1`),
  /**
   * Leases the next mail due to this sender and counts the attempt, in one statement; on
   * PostgreSQL a row another instance is claiming is skipped rather than waited for.
   */
  claim: statement<{ now: Date; leaseUntil: Date }, ClaimedMailRow>({
    sqlite: CLAIM(NEXT_DUE),
    postgres: CLAIM(`${NEXT_DUE} FOR UPDATE SKIP LOCKED`),
  }),
  /** A mail the server took: done, its body dropped. */
  sent: statement<{ id: string; now: Date }>(
    'UPDATE mail_outbox SET sent_at = :now, next_attempt_at = NULL, lease_expires_at = NULL, ' +
      'text = NULL, html = NULL, last_error = NULL WHERE id = :id',
  ),
  /** A failed attempt, tried again at `nextAttemptAt`. */
  retry: statement<{ id: string; nextAttemptAt: Date; error: string }>(
    'UPDATE mail_outbox SET next_attempt_at = :nextAttemptAt, lease_expires_at = NULL, ' +
      'last_error = :error WHERE id = :id',
  ),
  /** A mail given up (its attempts spent, or refused for good): kept without its body. */
  giveUp: statement<{ id: string; error: string }>(
    'UPDATE mail_outbox SET next_attempt_at = NULL, lease_expires_at = NULL, ' +
      'last_error = :error, text = NULL, html = NULL WHERE id = :id',
  ),
  /** Sent and given-up mails older than `before`. */
  prune: statement<{ before: Date }>(
    'DELETE FROM mail_outbox WHERE next_attempt_at IS NULL AND created_at < :before',
  ),
};
