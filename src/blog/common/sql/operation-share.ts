import type { RequestScope } from '../request-scope';

/** The statements one operation has under way, and those of its that wait for a place. */
interface Holding {
  running: number;
  waiting: Array<() => void>;
}

/**
 * The share of the database's pool (PostgreSQL's connections, or SQLite's reader threads) that
 * one operation may hold at once: a document of 30 aliased searches runs them `perOperation` at
 * a time, and the rest of the pool stays free for other clients. Statements of no operation
 * (background work) are not counted. An operation that stops while its statements wait for a
 * place starts none of them: they fail with the reason it stopped.
 */
export class OperationShare {
  private readonly holdings = new WeakMap<RequestScope, Holding>();

  constructor(readonly perOperation: number) {}

  /** The share of a pool of `poolSize`: half of it, and at least one. */
  static half(poolSize: number): OperationShare {
    return new OperationShare(Math.max(1, Math.floor(poolSize / 2)));
  }

  /** Runs `work` once `scope` holds fewer than its share of statements. */
  async run<T>(scope: RequestScope | undefined, work: () => Promise<T>): Promise<T> {
    if (!scope) return work();
    let holding = this.holdings.get(scope);
    if (!holding) {
      holding = { running: 0, waiting: [] };
      this.holdings.set(scope, holding);
    }
    while (holding.running >= this.perOperation) {
      await this.place(scope, holding);
      scope.throwIfStopped();
    }
    holding.running += 1;
    try {
      return await work();
    } finally {
      holding.running -= 1;
      holding.waiting.shift()?.();
    }
  }

  /** Resolves when a place may be free, or when the operation stops. */
  private place(scope: RequestScope, holding: Holding): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        scope.signal.removeEventListener('abort', wake);
        resolve();
      };
      holding.waiting.push(wake);
      scope.signal.addEventListener('abort', wake, { once: true });
    });
  }
}
