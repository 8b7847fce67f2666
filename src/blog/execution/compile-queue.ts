import { DocumentToCompile } from './operation-to-run';

/** Documents waiting to be compiled at most; past it, a document is queued by a later run. */
const MAX_QUEUED = 100;

/**
 * Documents waiting to be compiled, compiled in later turns of the event loop, one per turn and
 * at most `compilesPerMinute`, so that no request waits for a compile. A document taken off the
 * queue over budget is handed to `overBudget` instead.
 */
export class CompileQueue {
  private readonly waiting = new Map<string, DocumentToCompile>();
  private scheduled: NodeJS.Immediate | null = null;
  private window = { start: 0, compiles: 0 };
  private waiters: (() => void)[] = [];

  constructor(
    private readonly compilesPerMinute: number,
    private readonly compile: (key: string, document: DocumentToCompile) => void,
    private readonly overBudget: (key: string) => void,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  get full(): boolean {
    return this.waiting.size >= MAX_QUEUED;
  }

  has(key: string): boolean {
    return this.waiting.has(key);
  }

  add(key: string, document: DocumentToCompile): void {
    this.waiting.set(key, document);
    this.schedule();
  }

  /** Resolves once no document is waiting to be compiled. */
  idle(): Promise<void> {
    if (!this.waiting.size) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private schedule(): void {
    if (!this.scheduled && this.waiting.size) this.scheduled = setImmediate(this.compileNext);
  }

  private readonly compileNext = (): void => {
    this.scheduled = null;
    const [entry] = this.waiting;
    if (!entry) return;
    const [key, document] = entry;
    this.waiting.delete(key);
    const now = Date.now();
    if (now - this.window.start >= 60_000) this.window = { start: now, compiles: 0 };
    if (this.window.compiles < this.compilesPerMinute) {
      this.window.compiles++;
      this.compile(key, document);
    } else {
      this.overBudget(key);
    }
    this.schedule();
    if (!this.waiting.size) this.waiters.splice(0).forEach((resolve) => resolve());
  };
}
