import { ProcessingQueue, QueueFull } from './processing-queue';

/** A promise and the function that settles it, for work the spec finishes when it chooses. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('ProcessingQueue', () => {
  it('should admit concurrency + waiting uploads, refuse one more, and admit again once one is released', () => {
    const queue = new ProcessingQueue(2, 1);
    const places = [queue.admit(), queue.admit(), queue.admit()];
    expect(() => queue.admit()).toThrow(QueueFull);
    places[0]!.release();
    places[0]!.release();
    expect(queue.size).toBe(2);
    expect(() => queue.admit()).not.toThrow();
    expect(() => queue.admit()).toThrow(QueueFull);
  });

  it('should run at most `concurrency` works at once, the others in their turn', async () => {
    const queue = new ProcessingQueue(2, 10);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      queue.admit().run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    expect(await runs[1]).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
  });

  it('should give the turn on when a work fails', async () => {
    const queue = new ProcessingQueue(1, 1);
    const failing = queue.admit().run(() => Promise.reject(new Error('broken')));
    const next = queue.admit().run(() => Promise.resolve('ran'));
    await expect(failing).rejects.toThrow('broken');
    expect(await next).toBe('ran');
  });
});
