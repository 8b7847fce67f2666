/** Thrown by {@link ProcessingQueue.admit} when the queue is full. */
export class QueueFull extends Error {
  constructor() {
    super('Too many uploads are being processed; try again in a few seconds.');
  }
}

/**
 * The uploads an instance holds at once: at most `concurrency` are processed (each on sharp's
 * threads), at most `waiting` more wait their turn with their bytes in memory, and one more is
 * refused at once, before its body is read. So a burst costs bounded memory and threads, and
 * degrades into 429s, never into a stalled event loop.
 */
export class ProcessingQueue {
  private admitted = 0;
  private running = 0;
  private readonly turns: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly waiting: number,
  ) {}

  /** Uploads admitted and not yet released. */
  get size(): number {
    return this.admitted;
  }

  /**
   * Takes a place for one upload, or throws {@link QueueFull}; `release` gives it back, once,
   * whatever happened.
   */
  admit(): { run<T>(work: () => Promise<T>): Promise<T>; release(): void } {
    if (this.admitted >= this.concurrency + this.waiting) throw new QueueFull();
    this.admitted += 1;
    let released = false;
    return {
      run: (work) => this.run(work),
      release: () => {
        if (released) return;
        released = true;
        this.admitted -= 1;
      },
    };
  }

  /** Runs `work` once fewer than `concurrency` others run. */
  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.turns.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.turns.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
