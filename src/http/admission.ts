import { performance, PerformanceObserver } from 'node:perf_hooks';

interface Waiting {
  start: (finished: () => void) => void;
  abandoned?: () => boolean;
}

/** What an {@link Admission} is given; every field has a default. */
export interface AdmissionOptions {
  /**
   * Requests started and not finished yet that it allows at once; more wait their turn. 0 (the
   * default): no cap.
   */
  maxInFlight?: number;
  /** The length of a turn of the event loop it aims at, in ms. */
  turnMs?: number;
  /** The clock of the turns, in ms. */
  now?: () => number;
  /**
   * The time the garbage collector paused the thread between two instants of `now`'s clock, as
   * far as it is known yet.
   */
  pausedMs?: (from: number, to: number) => number;
}

/**
 * Starts the requests handed to it in later turns of the event loop, a few per turn: as many as
 * keep a turn near `turnMs`, and, with `maxInFlight`, no more than leave that many started and
 * not finished.
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
 * The cap on requests in flight is for a database reached through a pool: past a few requests
 * per connection, a started request only waits for a connection at each of its statements, and
 * what it holds meanwhile outlives the young collections. Waiting here instead, before it has
 * parsed or allocated anything, it costs nearly nothing.
 *
 * Clients take turns: each client's requests start in the order they came, and the clients
 * with requests waiting are served one request each in turn (round robin), so that a client's
 * request waits behind at most one request of each other client that has requests waiting, not
 * behind another client's whole burst. A request whose client has gone while it waited (its
 * `abandoned` check says so when its turn comes) is dropped, not started: under overload the
 * queue is where requests wait longest, and a client that gave up, a mutation's included, should
 * cost nothing and change nothing.
 */
export class Admission {
  /** Each client's waiting requests, in order; the clients in the order they are served. */
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingCount = 0;
  /** The client whose request started last: it goes behind the others that wait. */
  private lastServed: string | null = null;
  private inFlightCount = 0;
  private droppedCount = 0;
  private scheduled = false;
  private perTurn = 1;
  private lastTurn: number | null = null;
  /** The last halving, until the next turn tells whether the collector's pauses explain it. */
  private halving: { from: number; to: number; before: number } | null = null;
  private readonly maxInFlight: number;
  private readonly turnMs: number;
  private readonly now: () => number;
  private readonly pausedMs: (from: number, to: number) => number;

  constructor(options: AdmissionOptions = {}) {
    this.maxInFlight = options.maxInFlight || Infinity;
    this.turnMs = options.turnMs ?? 5;
    this.now = options.now ?? (() => performance.now());
    this.pausedMs = options.pausedMs ?? collectorPauses();
  }

  /** True when it caps the requests in flight: their `finished` must then be called. */
  get capped(): boolean {
    return this.maxInFlight !== Infinity;
  }

  /**
   * Calls `start` in a later turn of the event loop, after every request of the same `client`
   * admitted before it, unless `abandoned` then answers true (the client has gone): such a
   * request never starts. With a cap, the started request holds its place until it calls
   * `finished` (once is enough; later calls do nothing), when it has been answered or its
   * connection has closed.
   */
  admit(start: (finished: () => void) => void, abandoned?: () => boolean, client = ''): void {
    const queue = this.waiting.get(client);
    if (queue) queue.push({ start, abandoned });
    else this.waiting.set(client, [{ start, abandoned }]);
    this.waitingCount++;
    this.schedule();
  }

  /** Requests admitted and not started yet. */
  get pending(): number {
    return this.waitingCount;
  }

  /** Requests started and not finished yet (counted only with a cap; 0 without). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Requests dropped so far because their client had gone before they started. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** How many requests the next turn may start. */
  get startsPerTurn(): number {
    return this.perTurn;
  }

  private schedule(): void {
    if (!this.scheduled && this.waitingCount > 0 && this.inFlightCount < this.maxInFlight) {
      this.scheduled = true;
      setImmediate(this.turn);
    }
  }

  /** The next request to start: the first of the client whose turn it is. */
  private next(): Waiting {
    let [client, queue] = this.waiting.entries().next().value as [string, Waiting[]];
    if (client === this.lastServed && this.waiting.size > 1) {
      // To the back of the line, now that others wait too: a client that came while this one
      // was served alone goes first.
      this.waiting.delete(client);
      this.waiting.set(client, queue);
      [client, queue] = this.waiting.entries().next().value as [string, Waiting[]];
    }
    const next = queue.shift() as Waiting;
    this.waitingCount--;
    if (queue.length === 0) this.waiting.delete(client);
    this.lastServed = client;
    return next;
  }

  /** What a started request calls when it is over: it gives its place back, once. */
  private finisher(): () => void {
    if (!this.capped) return noop;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlightCount--;
      this.schedule();
    };
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
    // Abandoned requests are dropped on the way and take no place in the turn. Each request
    // leaves the queue as it is taken: the queue keeps no request it has started (each holds its
    // request and reply), even when, under sustained load, it never empties.
    const places = Math.min(this.perTurn, this.maxInFlight - this.inFlightCount);
    const starting: Waiting['start'][] = [];
    while (this.waitingCount > 0 && starting.length < places) {
      const { start, abandoned } = this.next();
      if (abandoned?.()) this.droppedCount++;
      else starting.push(start);
    }
    if (this.capped) this.inFlightCount += starting.length;
    // Scheduled before the requests start, so that a request that throws stops no other. With
    // every place taken, the next turn is scheduled when a request finishes.
    this.scheduled = false;
    // Measured to the next turn also when this one empties the queue. Otherwise the number
    // stays where cheap requests left it (64 after a run of Q1) for as long as each turn
    // empties the queue, and a burst of costly requests then all start in one long turn, which
    // is what the bound is for. A turn after a pause halves the number too; short turns raise
    // it again.
    this.lastTurn = now;
    this.schedule();
    for (const start of starting) start(this.finisher());
  };
}

const noop = (): void => undefined;

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
