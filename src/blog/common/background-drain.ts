import { outsideRequestScope } from './request-scope';

/**
 * Work that runs after the requests that asked for it, outside their scope (the followers'
 * notifications of publications, the search index of new posts): one run at a time, `delayMs`
 * after it is asked for, so that requests close together share one run. After each run, `next`
 * gives the delay of the next one, or null for none until it is asked for again.
 */
export class BackgroundDrain {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly next: () => number | null,
  ) {}

  /** Runs the work in `delayMs`, unless a run is due already, under way, or stopped. */
  schedule(delayMs: number): void {
    if (this.timer || this.running || this.stopped) return;
    this.timer = outsideRequestScope(() =>
      setTimeout(() => {
        this.timer = null;
        void this.run();
      }, delayMs),
    );
    this.timer.unref();
  }

  /** Runs the work now, or returns the run under way. */
  run(): Promise<void> {
    this.cancelTimer();
    this.running ??= outsideRequestScope(() => this.drain()).finally(() => {
      this.running = null;
      const delayMs = this.next();
      if (delayMs !== null) this.schedule(delayMs);
    });
    return this.running;
  }

  /** The run under way, or null. */
  get underWay(): Promise<void> | null {
    return this.running;
  }

  /** True once stopped: a run that loops checks it between its steps. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs no more; resolves once the run under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    await this.running;
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
