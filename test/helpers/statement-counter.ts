import type { Logger } from 'typeorm';

/** A TypeORM logger that counts the SQL statements sent, for the batching tests. */
export class StatementCounter implements Logger {
  readonly statements: string[] = [];

  logQuery(query: string): void {
    this.statements.push(query);
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  /** The statements sent while `action` ran (transaction bookkeeping included). */
  async count(action: () => Promise<unknown>): Promise<number> {
    const before = this.statements.length;
    await action();
    return this.statements.length - before;
  }
}
