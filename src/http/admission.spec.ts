import { performance } from 'node:perf_hooks';

import { Admission, collectorPauses } from './admission';

/** Resolves after `count` turns of the event loop (check phases). */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A clock that each turn moves on by the next of `steps` (ms). */
function clock(steps: number[]) {
  let time = 0;
  let index = 0;
  return () => (time += steps[Math.min(index++, steps.length - 1)]);
}

/** No collector pauses: the fake clocks' instants are not `performance.now()`'s. */
const noPauses = () => 0;

describe('Admission', () => {
  it('should start requests in later turns of the event loop, in the order they came', async () => {
    const admission = new Admission({ now: clock([10]), pausedMs: noPauses });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c']) admission.admit(() => started.push(name));
    expect(started).toEqual([]);
    expect(admission.pending).toBe(3);

    await turns(1);
    expect(started).toEqual(['a']);
    await turns(1);
    expect(started).toEqual(['a', 'b']);
    admission.admit(() => started.push('d'));
    await turns(2);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(admission.pending).toBe(0);
  });

  it('should start more requests a turn while turns are short', async () => {
    const admission = new Admission({ now: clock([1]), pausedMs: noPauses });
    const started: number[] = [];
    for (let i = 0; i < 10; i++) admission.admit(() => started.push(i));
    const perTurn: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const before = started.length;
      await turns(1);
      perTurn.push(started.length - before);
    }
    expect(perTurn).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('should halve the requests a turn when a turn ran long, down to one', async () => {
    // Short turns first (1 ms), then long ones (20 ms).
    const admission = new Admission({ now: clock([1, 1, 1, 1, 20]), pausedMs: noPauses });
    for (let i = 0; i < 100; i++) admission.admit(() => undefined);
    await turns(4);
    expect(admission.startsPerTurn).toBe(4);
    await turns(1);
    expect(admission.startsPerTurn).toBe(2);
    await turns(2);
    expect(admission.startsPerTurn).toBe(1);
  });

  it('should halve the requests a turn after long turns that each empty the queue', async () => {
    // Cheap requests raise the number to 4, and their last turn empties the queue; then each
    // long turn (20 ms) starts all of the two requests that came meanwhile.
    const admission = new Admission({ now: clock([1, 1, 1, 1, 20]), pausedMs: noPauses });
    for (let i = 0; i < 10; i++) admission.admit(() => undefined);
    await turns(4);
    expect(admission.pending).toBe(0);
    expect(admission.startsPerTurn).toBe(4);
    for (let turn = 0; turn < 3; turn++) {
      admission.admit(() => undefined);
      admission.admit(() => undefined);
      await turns(1);
    }
    expect(admission.startsPerTurn).toBe(1);
  });

  it("should give back, a turn later, a halving that the collector's pauses explain", async () => {
    // Four short turns (1 ms), then one of 20 ms, 18 of which the collector paused the thread.
    // The clock reads 1, 2, 3, 4, 24, 25...; the pause ran from 5 to 23.
    const paused = (from: number, to: number) => Math.max(0, Math.min(23, to) - Math.max(5, from));
    const admission = new Admission({ now: clock([1, 1, 1, 1, 20, 1]), pausedMs: paused });
    for (let i = 0; i < 100; i++) admission.admit(() => undefined);
    await turns(4);
    expect(admission.startsPerTurn).toBe(4);
    await turns(1);
    // Halved at once: the pause is not known yet when the long turn is seen.
    expect(admission.startsPerTurn).toBe(2);
    await turns(1);
    // Given back, and then raised by the short turn that followed.
    expect(admission.startsPerTurn).toBe(5);
  });

  it('should keep a halving that the pauses do not explain', async () => {
    // The same turns, but the collector paused the thread for only 5 of the long turn's 20 ms.
    const admission = new Admission({
      now: clock([1, 1, 1, 1, 20, 1]),
      pausedMs: (from, to) => (from < 9 && to > 4 ? 5 : 0),
    });
    for (let i = 0; i < 100; i++) admission.admit(() => undefined);
    await turns(5);
    expect(admission.startsPerTurn).toBe(2);
    await turns(1);
    expect(admission.startsPerTurn).toBe(3);
  });

  it("should sum the collector's pauses that Node reports", async () => {
    const paused = collectorPauses();
    const from = performance.now();
    // Some 40 MB of short-lived objects: several young-generation collections.
    let kept: unknown[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      kept.push({ i, text: `object ${i}` });
      if (kept.length > 10_000) kept = [];
    }
    const to = performance.now();
    // The entries arrive in a later turn of the event loop.
    await turns(3);
    const total = paused(from, to);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(to - from);
    // Only the pauses inside the interval count: none has run a second from now.
    const later = performance.now() + 1_000;
    expect(paused(later, later + 1_000)).toBe(0);
  });

  it('should start a request admitted when the queue was empty in the next turn', async () => {
    const admission = new Admission();
    let started = 0;
    admission.admit(() => started++);
    await turns(1);
    admission.admit(() => started++);
    await turns(1);
    expect(started).toBe(2);
  });

  it('should not keep the requests it started while the queue never empties', async () => {
    const admission = new Admission({ now: clock([10]), pausedMs: noPauses });
    const queues = (admission as unknown as { waiting: Map<string, unknown[]> }).waiting;
    let started = 0;
    for (let turn = 0; turn < 1200; turn++) {
      admission.admit(() => started++);
      admission.admit(() => started++);
      await turns(1);
    }
    expect(started).toBe(1200);
    expect(admission.pending).toBe(1200);
    expect([...queues.values()].reduce((sum, queue) => sum + queue.length, 0)).toBe(1200);
  });

  it('should drop, never start, a request whose client has gone by its turn', async () => {
    const admission = new Admission({ now: clock([10]), pausedMs: noPauses });
    const started: string[] = [];
    const gone = new Set<string>();
    for (const name of ['a', 'b', 'c']) {
      admission.admit(
        () => started.push(name),
        () => gone.has(name),
      );
    }
    await turns(1);
    expect(started).toEqual(['a']);
    gone.add('b');
    await turns(2);
    expect(started).toEqual(['a', 'c']);
    expect(admission.dropped).toBe(1);
    expect(admission.pending).toBe(0);
  });

  it('should give the place of a dropped request in a turn to the next one', async () => {
    const admission = new Admission({ now: clock([10]), pausedMs: noPauses });
    const started: number[] = [];
    for (let i = 0; i < 5; i++) {
      admission.admit(
        () => started.push(i),
        () => i < 4,
      );
    }
    await turns(1);
    expect(started).toEqual([4]);
    expect(admission.dropped).toBe(4);
    expect(admission.pending).toBe(0);
  });

  it('should serve the clients with requests waiting in turn, each one in its order', async () => {
    const admission = new Admission({ now: clock([10]), pausedMs: noPauses });
    const started: string[] = [];
    for (const name of ['a1', 'a2', 'a3', 'a4'])
      admission.admit(() => started.push(name), undefined, 'a');
    admission.admit(() => started.push('b1'), undefined, 'b');
    admission.admit(() => started.push('c1'), undefined, 'c');
    admission.admit(() => started.push('b2'), undefined, 'b');
    await turns(7);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(admission.pending).toBe(0);
  });

  it('should start no more than the cap in flight, and one more as each finishes', async () => {
    const admission = new Admission({ maxInFlight: 2, now: clock([1]), pausedMs: noPauses });
    expect(admission.capped).toBe(true);
    const finishers: (() => void)[] = [];
    for (let i = 0; i < 5; i++) admission.admit((finished) => finishers.push(finished));
    await turns(5);
    expect(finishers).toHaveLength(2);
    expect(admission.inFlight).toBe(2);
    expect(admission.pending).toBe(3);

    finishers[0]();
    // Finishing twice gives back one place only.
    finishers[0]();
    await turns(3);
    expect(finishers).toHaveLength(3);
    expect(admission.inFlight).toBe(2);

    finishers[1]();
    finishers[2]();
    await turns(3);
    expect(finishers).toHaveLength(5);
    for (const finished of finishers.slice(3)) finished();
    expect(admission.inFlight).toBe(0);
    expect(admission.pending).toBe(0);
  });

  it('should give a freed place to the next client in turn, not to the busiest one', async () => {
    const admission = new Admission({ maxInFlight: 2, now: clock([1]), pausedMs: noPauses });
    const running = new Map<string, () => void>();
    const started: string[] = [];
    const admit = (name: string, client: string) =>
      admission.admit(
        (finished) => {
          started.push(name);
          running.set(name, finished);
        },
        undefined,
        client,
      );
    // A client's slow burst takes every place, and more of it waits.
    for (let i = 1; i <= 6; i++) admit(`slow${i}`, 'a');
    await turns(3);
    expect(started).toEqual(['slow1', 'slow2']);
    admit('quick1', 'b');
    running.get('slow1')?.();
    await turns(2);
    expect(started).toEqual(['slow1', 'slow2', 'quick1']);
    running.get('quick1')?.();
    await turns(2);
    expect(started).toEqual(['slow1', 'slow2', 'quick1', 'slow3']);
  });

  it('should count nothing in flight and never wait without a cap', async () => {
    const admission = new Admission({ now: clock([1]), pausedMs: noPauses });
    expect(admission.capped).toBe(false);
    let started = 0;
    for (let i = 0; i < 20; i++) admission.admit(() => started++);
    await turns(10);
    expect(started).toBe(20);
    expect(admission.inFlight).toBe(0);
  });

  it('should not count a dropped request in flight', async () => {
    const admission = new Admission({ maxInFlight: 1, now: clock([10]), pausedMs: noPauses });
    const started: number[] = [];
    admission.admit(
      () => started.push(0),
      () => true,
    );
    admission.admit(() => started.push(1));
    await turns(2);
    expect(started).toEqual([1]);
    expect(admission.dropped).toBe(1);
    expect(admission.inFlight).toBe(1);
  });
});
