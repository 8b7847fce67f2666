import { performance, PerformanceObserver } from 'node:perf_hooks';

interface Waiting {
  start: () => void;
  abandoned?: () => boolean;
}

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
 *
 * A turn made long by the garbage collector does not count as costly requests: the number is
 * halved at once, and given back in the next turn when the collector's pauses (which Node reports
 * a turn late) explain the length. Otherwise a full collection's pause (10-20 ms) halves the
 * number, the waiting requests wait longer, more of them outlive two young collections and are
 * promoted, which makes more full collections: under sustained load a server could settle in
 * that slow mode for good.
 *
 * A request whose client has gone while it waited (its `abandoned` check says so when its turn
 * comes) is dropped, not started: under overload the queue is where requests wait longest, and
 * a client that gave up, a mutation's included, should cost nothing and change nothing.
 */
export class Admission {
  private readonly waiting: Waiting[] = [];
  private droppedCount = 0;
  private scheduled = false;
  private perTurn = 1;
  private lastTurn: number | null = null;
  /** The last halving, until the next turn tells whether the collector's pauses explain it. */
  private halving: { from: number; to: number; before: number } | null = null;

  /**
   * @param pausedMs the time the garbage collector paused the thread between two instants of
   * `now`'s clock, as far as it is known yet.
   */
  constructor(
    private readonly turnMs = 5,
    private readonly now: () => number = () => performance.now(),
    private readonly pausedMs: (from: number, to: number) => number = collectorPauses(),
  ) {}

  /**
   * Calls `start` in a later turn of the event loop, after every request admitted before it,
   * unless `abandoned` then answers true (the client has gone): such a request never starts.
   */
  admit(start: () => void, abandoned?: () => boolean): void {
    this.waiting.push({ start, abandoned });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.turn);
    }
  }

  /** Requests admitted and not started yet. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Requests dropped so far because their client had gone before they started. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** How many requests the next turn may start. */
  get startsPerTurn(): number {
    return this.perTurn;
  }

  private readonly turn = (): void => {
    const now = this.now();
    if (this.halving) {
      const { from, to, before } = this.halving;
      this.halving = null;
      if (to - from - this.pausedMs(from, to) <= this.turnMs) this.perTurn = before;
    }
    if (this.lastTurn !== null) {
      // The time since the previous turn began: its requests' work and the loop's other work.
      const length = now - this.lastTurn;
      if (length > this.turnMs) {
        this.halving = { from: this.lastTurn, to: now, before: this.perTurn };
        this.perTurn = Math.max(1, this.perTurn >> 1);
      } else if (length < this.turnMs / 2) this.perTurn = Math.min(64, this.perTurn + 1);
    }
    // Abandoned requests are dropped on the way and take no place in the turn.
    const starting: (() => void)[] = [];
    let taken = 0;
    while (taken < this.waiting.length && starting.length < this.perTurn) {
      const { start, abandoned } = this.waiting[taken++];
      if (abandoned?.()) this.droppedCount++;
      else starting.push(start);
    }
    // Taken out of the queue as they start: it keeps no request it has started (each holds its
    // request and reply), even when, under sustained load, it never empties. The queue is at
    // most one request per connection long, so the shift is cheap.
    this.waiting.splice(0, taken);
    // Scheduled before the requests start, so that a request that throws stops no other.
    this.scheduled = this.pending > 0;
    // Measured to the next turn also when this one empties the queue. Otherwise the number
    // stays where cheap requests left it (64 after a run of Q1) for as long as each turn
    // empties the queue, and a burst of costly requests then all start in one long turn, which
    // is what the bound is for. A turn after a pause halves the number too; short turns raise
    // it again.
    this.lastTurn = now;
    if (this.scheduled) setImmediate(this.turn);
    for (const start of starting) start();
  };
}

/** The pauses the collector reported, in the order they ran, on `performance.now()`'s clock. */
const pauses: { start: number; end: number }[] = [];
/** How many pauses are kept: a few seconds' worth under load, for the turns that ask. */
const KEPT_PAUSES = 256;
let observer: PerformanceObserver | null = null;

/**
 * The garbage collector's pauses of the main thread, from Node's `gc` performance entries,
 * which arrive in the turn of the event loop after the pause: the returned function sums the
 * pauses known so far between two instants of `performance.now()`. One observer serves every
 * Admission of the process.
 */
export function collectorPauses(): (from: number, to: number) => number {
  if (!observer) {
    observer = new PerformanceObserver((list) => {
      for (const { startTime, duration } of list.getEntries()) {
        pauses.push({ start: startTime, end: startTime + duration });
      }
      if (pauses.length > KEPT_PAUSES) pauses.splice(0, pauses.length - KEPT_PAUSES);
    });
    observer.observe({ entryTypes: ['gc'] });
  }
  return (from, to) => {
    let paused = 0;
    // From the newest back to the first that ended before `from`: a turn asks about the last.
    for (let i = pauses.length - 1; i >= 0 && pauses[i].end > from; i--) {
      paused += Math.max(0, Math.min(pauses[i].end, to) - Math.max(pauses[i].start, from));
    }
    return paused;
  };
}
