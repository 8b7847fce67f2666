import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { MailSettings } from './mail-options';
import {
  createMailTransport,
  isPermanentFailure,
  MailMessage,
  MailTransport,
} from './mail-transport';
import { ClaimedMailRow, mailSql } from './mail.sql';
import { BackgroundDrain } from '../common/background-drain';
import { backoffDelayMs } from '../common/backoff';
import { messageOf } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';

/** The injection token of the module's {@link MailSettings}. */
export const MAIL_SETTINGS = Symbol('MAIL_SETTINGS');

/** How often an instance looks for mails due: retries, and what a stopped instance left. */
export const MAIL_POLL_MS = 5_000;
/** How long a claimed mail is this sender's: longer than a send can take with its timeouts. */
export const MAIL_LEASE_MS = 120_000;
/** The longest wait between two attempts, however many came before. */
const MAX_RETRY_MS = 6 * 3_600_000;
/** Sent and given-up mails are deleted once this old. */
const KEEP_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
/** The longest error kept in `last_error`. */
const ERROR_LENGTH = 500;

/** A mail to queue: who gets it, what it says, and what kind of mail it is (for the logs). */
export interface OutgoingMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Headers of every mail: an automatic mail, to which no auto-responder should answer. */
export const MAIL_HEADERS: Readonly<Record<string, string>> = {
  'Auto-Submitted': 'auto-generated',
};

/** A run of URL-safe base64 as long as a token (43 characters and more), hidden from logs. */
const TOKEN_LIKE = /[A-Za-z0-9_-]{43,}/g;

/** `error`'s message, fit for a log line or `last_error`: no token, one line, bounded. */
export function describeFailure(error: unknown): string {
  const { responseCode } = (error ?? {}) as { responseCode?: unknown };
  const message = messageOf(error).replace(TOKEN_LIKE, '[redacted]').replace(/\s+/g, ' ');
  const text = typeof responseCode === 'number' ? `${message} (SMTP ${responseCode})` : message;
  return text.slice(0, ERROR_LENGTH);
}

/**
 * The wait before attempt `attempts + 1`: `baseMs` after the first, doubling after each next,
 * at most {@link MAX_RETRY_MS}, then jittered down by up to half, so that the mails of one
 * outage do not all come back at once.
 */
export function retryDelayMs(attempts: number, baseMs: number, random = Math.random): number {
  return backoffDelayMs(
    attempts,
    { baseMs, factor: 2, maxMs: MAX_RETRY_MS, spread: [1, 0.5] },
    random,
  );
}

/**
 * The outgoing mail of the blog, through an outbox. A mail is a row of `mail_outbox`, written by
 * {@link enqueue} in the transaction of the change that asks for it (a sign-up, a reset), so that
 * no request waits on a mail server and no mail is lost or sent for a change that rolled back.
 * Once that transaction has committed, {@link queued} wakes the sender; it also looks every
 * {@link MAIL_POLL_MS}, and at start-up, for mails due (retries, and what a stopped instance
 * left).
 *
 * The sender claims one mail at a time, in one statement that leases it and counts the attempt
 * (on PostgreSQL with `FOR UPDATE SKIP LOCKED`, so that instances share the work and each mail
 * goes to one of them). A mail the server took is marked sent and its body dropped. A failure
 * is logged as a warning and tried again after {@link retryDelayMs}; after `maxAttempts`
 * attempts, or when the server refuses the recipient (5xx), the mail is given up, logged at
 * error level. Logs name the mail's id and kind, never its address or link. A sender that
 * dies mid-send leaves its mail to another once the lease ({@link MAIL_LEASE_MS}) has run out:
 * a mail may then go out twice, never not at all, with the same Message-ID.
 */
@Injectable()
export class MailOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MailOutbox.name);
  private readonly statements: PreparedStatements<typeof mailSql>;
  private readonly transport: MailTransport | null;
  private readonly drainer: BackgroundDrain;
  private poll: NodeJS.Timeout | null = null;
  private retryTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  private prunedAt = 0;

  constructor(
    private readonly sql: Sql,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {
    this.statements = sql.prepare(mailSql);
    this.transport = createMailTransport(settings.transport);
    this.drainer = new BackgroundDrain(() => this.drain(), {
      delayMs: 0,
      retryMs: MAIL_POLL_MS,
      task: 'send queued mail',
      logger: this.logger,
    });
  }

  /** Whether mail goes out at all: with no transport, nothing is queued. */
  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Queues `mail` on `sql`, the transaction of the change that sends it; nothing when mail is off. */
  async enqueue(sql: SqlRunner, mail: OutgoingMail): Promise<void> {
    if (!this.transport) return;
    await sql.run(this.statements.enqueue, {
      id: newId(),
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: JSON.stringify(MAIL_HEADERS),
      now: new Date(),
    });
  }

  /** Call once the transaction of an {@link enqueue} has committed: the mail goes out shortly. */
  queued(): void {
    if (this.transport) this.drainer.request();
  }

  /** Resolves once the mails due when called have been sent, or failed and left for later. */
  settled(): Promise<void> {
    return this.drainer.settled();
  }

  /**
   * Sends what a stopped process left due, and looks again every {@link MAIL_POLL_MS}. A
   * database it cannot read stops no start: the next look tries again.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.transport) {
      this.logger.log('No mail transport is set: account mails are not sent.');
      return;
    }
    this.logger.log(`Account mails go to ${this.transport.description}.`);
    this.poll = setInterval(() => void this.lookForDueMail(), MAIL_POLL_MS);
    this.poll.unref();
    await this.lookForDueMail();
  }

  /** Lets the send under way end before the database closes; the rest waits for the next start. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (this.retryTimer) clearTimeout(this.retryTimer.timer);
    this.retryTimer = null;
    await this.drainer.stop();
    this.transport?.close();
  }

  /** Wakes the sender when a mail is due; once an hour, deletes the old sent and given-up ones. */
  private async lookForDueMail(): Promise<void> {
    try {
      await this.prune();
      if (await this.sql.one(this.statements.anyDue, { now: new Date() })) this.drainer.request();
    } catch (error) {
      this.logger.warn(`Could not look for mail to send: ${messageOf(error)}`);
    }
  }

  /** Claims and sends the mails due, one after the other, until none is left. */
  private async drain(): Promise<void> {
    const transport = this.transport;
    if (!transport) return;
    while (!this.drainer.isStopped) {
      const now = new Date();
      const leaseUntil = new Date(now.getTime() + MAIL_LEASE_MS);
      const row = await this.sql.one(this.statements.claim, { now, leaseUntil });
      if (!row) break;
      await this.deliver(transport, row);
    }
  }

  private async deliver(transport: MailTransport, row: ClaimedMailRow): Promise<void> {
    const attempts = Number(row.attempts);
    try {
      await transport.send(this.messageOf(row));
    } catch (error) {
      await this.failed(row, attempts, error);
      return;
    }
    await this.sql.run(this.statements.sent, { id: row.id, now: new Date() });
  }

  private messageOf(row: ClaimedMailRow): MailMessage {
    return {
      id: row.id,
      from: this.settings.from,
      to: row.recipient,
      subject: row.subject,
      text: row.text ?? '',
      html: row.html ?? '',
      headers: JSON.parse(row.headers) as Record<string, string>,
    };
  }

  private async failed(row: ClaimedMailRow, attempts: number, error: unknown): Promise<void> {
    const reason = describeFailure(error);
    const what = `mail ${row.id} (${row.kind})`;
    if (isPermanentFailure(error) || attempts >= this.settings.maxAttempts) {
      await this.sql.run(this.statements.giveUp, { id: row.id, error: reason });
      this.logger.error(`Gave up on ${what} after ${attempts} attempt(s): ${reason}`);
      return;
    }
    const delay = retryDelayMs(attempts, this.settings.retryBaseMs);
    const nextAttemptAt = new Date(Date.now() + delay);
    await this.sql.run(this.statements.retry, { id: row.id, nextAttemptAt, error: reason });
    this.logger.warn(
      `Could not send ${what}, attempt ${attempts} of ${this.settings.maxAttempts}; trying again in ${delay} ms: ${reason}`,
    );
    this.retryAt(nextAttemptAt.getTime());
  }

  /** Wakes the sender at `at`, sooner than the poll would, unless an earlier wake is set. */
  private retryAt(at: number): void {
    if (this.drainer.isStopped) return;
    if (this.retryTimer && this.retryTimer.at <= at && this.retryTimer.at > Date.now()) return;
    if (this.retryTimer) clearTimeout(this.retryTimer.timer);
    const timer = setTimeout(
      () => {
        this.retryTimer = null;
        this.drainer.request();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.retryTimer = { at, timer };
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.sql.run(this.statements.prune, { before: new Date(now - KEEP_MS) });
  }
}
