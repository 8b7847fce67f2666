import type { LoggerService } from '@nestjs/common';

import { messageOf } from './errors';
import { outsideRequestScope } from './request-scope';

/** How a {@link BackgroundDrain} runs its work, and what it says when a run fails. */
export interface BackgroundDrainOptions {
  /** How long a request waits for others to share its run. */
  delayMs: number;
  /** How long the next run waits after one that failed. */
  retryMs: number;
  /** What the work does, for the warning of a run that failed: `index new posts for search`. */
  task: string;
  /** The owner's logger, which the warning goes to. */
  logger: Pick<LoggerService, 'warn'>;
}

/**
 * Work that runs after the requests that asked for it, outside their scope (the followers'
 * notifications of publications, the search index of new posts): one run at a time,
 * `delayMs` after it is requested, so that requests close together share one run. A run
 * takes everything pending, batch after batch; a run that fails is logged and the work stays
 * pending, for another run `retryMs` later and for whoever waits on {@link settled}.
 *
 * The work resolves to true when it left something it could not take (rows that another
 * instance holds): the drain looks again `retryMs` later, without making anyone wait for it.
 */
export class BackgroundDrain {
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Whether work was requested since the last run began (or that run failed). */
  private pending = false;
  /** Whether the last run failed: the next waits `retryMs`. */
  private failed = false;
  /** Whether the last run left what it could not take: it looks again `retryMs` later. */
  private leftOver = false;

  constructor(
    private readonly work: () => Promise<boolean | void>,
    private readonly options: BackgroundDrainOptions,
  ) {}

  /** Asks for a run: in `delayMs`, unless one is due already, under way, or stopped. */
  request(): void {
    this.pending = true;
    this.schedule(this.options.delayMs);
  }

  /**
   * Asks for a run now and again every `intervalMs` until {@link stop}: for work that is found
   * by looking (posts come due, retries, what another instance left), not only requested.
   */
  requestEvery(intervalMs: number): void {
    this.request();
    if (this.poll || this.stopped) return;
    this.poll = outsideRequestScope(() => setInterval(() => this.request(), intervalMs));
    this.poll.unref();
  }

  /**
   * Runs now what is pending (at the start, what a stopped process left), or joins the run
   * under way; a request made meanwhile gets a run of its own after it.
   */
  async runNow(): Promise<void> {
    this.pending = true;
    await this.run();
  }

  /**
   * Resolves once the work requested before the call has run (or its run failed, and is tried
   * again later): it joins the run under way, then runs what is still pending.
   */
  async settled(): Promise<void> {
    await this.running;
    if (this.pending) await this.run();
  }

  /** True once stopped: a run that loops checks it between its batches. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs no more (not even for {@link settled}); resolves once the run under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.running || this.stopped) return;
    this.timer = outsideRequestScope(() =>
      setTimeout(() => {
        this.timer = null;
        void this.run();
      }, delayMs),
    );
    this.timer.unref();
  }

  private run(): Promise<void> {
    this.cancelTimer();
    if (this.stopped) return this.running ?? Promise.resolve();
    this.running ??= outsideRequestScope(() => this.runOnce()).finally(() => {
      this.running = null;
      const { delayMs, retryMs } = this.options;
      if (this.pending) this.schedule(this.failed ? retryMs : delayMs);
      else if (this.leftOver) this.schedule(retryMs);
    });
    return this.running;
  }

  private async runOnce(): Promise<void> {
    this.pending = false;
    this.failed = false;
    this.leftOver = false;
    try {
      this.leftOver = (await this.work()) === true;
    } catch (error) {
      this.pending = true;
      this.failed = true;
      const { task, retryMs, logger } = this.options;
      logger.warn(`Could not ${task}, trying again in ${retryMs} ms: ${messageOf(error)}`);
    }
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
