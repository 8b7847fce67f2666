import { performance } from 'node:perf_hooks';

/**
 * Starts the requests handed to it in later turns of the event loop, first come, first served,
 * a few per turn: as many as keep a turn near `turnMs`.
 *
 * Node accepts one waiting connection per turn of the loop (libuv 1.46 on Linux, measured with
 * the listening socket's queue). When a turn runs every request that has arrived, a turn under
 * load lasts as long as all of them together, and a burst of new connections (a client opening
 * 100 at once) is accepted one such turn at a time: the last ones waited over 10 s in the
 * benchmark while the median stayed under half a second. Bounding the requests a turn starts
 * keeps turns short, so connections are accepted as fast as a few requests finish. The number
 * per turn follows how long turns take (one more while they are short, half as many when one
 * ran long), so cheap requests share a turn's overhead and expensive ones get a turn each.
 */
export class Admission {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  private perTurn = 1;
  private lastTurn: number | null = null;

  constructor(
    private readonly turnMs = 5,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `start` in a later turn of the event loop, after every request admitted before it. */
  admit(start: () => void): void {
    this.waiting.push(start);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.turn);
    }
  }

  /** Requests admitted and not started yet. */
  get pending(): number {
    return this.waiting.length;
  }

  /** How many requests the next turn may start. */
  get startsPerTurn(): number {
    return this.perTurn;
  }

  private readonly turn = (): void => {
    const now = this.now();
    if (this.lastTurn !== null) {
      // The time since the previous turn began: its requests' work and the loop's other work.
      const length = now - this.lastTurn;
      if (length > this.turnMs) this.perTurn = Math.max(1, this.perTurn >> 1);
      else if (length < this.turnMs / 2) this.perTurn = Math.min(64, this.perTurn + 1);
    }
    // Taken out of the queue as they start: it keeps no request it has started (each holds its
    // request and reply), even when, under sustained load, it never empties. The queue is at
    // most one request per connection long, so the shift is cheap.
    const starting = this.waiting.splice(0, this.perTurn);
    // Scheduled before the requests start, so that a request that throws stops no other.
    this.scheduled = this.pending > 0;
    this.lastTurn = this.scheduled ? now : null;
    if (this.scheduled) setImmediate(this.turn);
    for (const start of starting) start();
  };
}
