import type { Logger } from 'typeorm';

import { ABANDONED_UPLOADS } from '../../src/blog/images/images.sql';
import { DUE_MAIL } from '../../src/blog/mail/mail.sql';
import { DUE_POSTS } from '../../src/blog/posts/posts.sql';
import { DUE_DELIVERIES, PRUNED_DELIVERIES } from '../../src/blog/webhooks/webhooks.sql';

/**
 * Whether `query` is one of the statements the app sends on timers, outside every request, which
 * statement counts leave out: the scheduler's look for due posts every second, and the mail
 * sender's for due mail; the webhook worker's look for due deliveries, and its pruning of their
 * log; the image sweep's look for abandoned uploads, every few seconds.
 */
export function isBackgroundStatement(query: string): boolean {
  return [DUE_POSTS, DUE_MAIL, DUE_DELIVERIES, PRUNED_DELIVERIES, ABANDONED_UPLOADS].some((start) =>
    query.startsWith(start),
  );
}

/** A TypeORM logger that counts the SQL statements sent, for the batching tests. */
export class StatementCounter implements Logger {
  readonly statements: string[] = [];
  /**
   * Waits for the work the app does after a request answers (a publication's fan-out to its
   * followers), so that it falls into the count of the action that caused it, never another's.
   */
  settle: () => Promise<void> = async () => {};

  logQuery(query: string): void {
    if (!isBackgroundStatement(query)) this.statements.push(query);
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  /**
   * The statements sent while `action` ran (transaction bookkeeping included), with those of the
   * work it left to run after it answered.
   */
  async count(action: () => Promise<unknown>): Promise<number> {
    return (await this.during(action)).statements.length;
  }

  /** What `action` returned, and the statements it sent, counted as {@link count} does. */
  async during<T>(action: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    await this.settle();
    const before = this.statements.length;
    const result = await action();
    await this.settle();
    return { result, statements: this.statements.slice(before) };
  }
}
