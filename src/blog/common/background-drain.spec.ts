import { setTimeout as sleep } from 'node:timers/promises';

import { BackgroundDrain } from './background-drain';

describe('BackgroundDrain', () => {
  /** A drain that counts its runs, each ending when the test says. */
  function counting(next: () => number | null = () => null) {
    let runs = 0;
    let finish: () => void = () => {};
    const drainer = new BackgroundDrain(async () => {
      runs += 1;
      await new Promise<void>((done) => (finish = done));
    }, next);
    return { drainer, runs: () => runs, finish: () => finish() };
  }

  it('should run once for the requests of one delay, after it', async () => {
    const { drainer, runs, finish } = counting();
    drainer.schedule(20);
    drainer.schedule(5);
    drainer.schedule(0);
    expect(runs()).toBe(0);
    await sleep(40);
    expect(runs()).toBe(1);
    finish();
    await drainer.underWay;
    expect(drainer.underWay).toBeNull();
    await sleep(30);
    expect(runs()).toBe(1);
  });

  it('should join the run under way, and schedule nothing while it lasts', async () => {
    const { drainer, runs, finish } = counting();
    const first = drainer.run();
    expect(drainer.run()).toBe(first);
    drainer.schedule(0);
    await sleep(10);
    expect(runs()).toBe(1);
    finish();
    await first;
  });

  it('should run again after the delay that next gives, and not at all after null', async () => {
    const delays: (number | null)[] = [0, null];
    const { drainer, runs, finish } = counting(() => delays.shift() ?? null);
    void drainer.run();
    finish();
    await sleep(20);
    expect(runs()).toBe(2);
    finish();
    await sleep(20);
    expect(runs()).toBe(2);
  });

  it('should run no more once stopped, after the run under way has ended', async () => {
    const { drainer, runs, finish } = counting(() => 0);
    void drainer.run();
    let stopped = false;
    const stopping = drainer.stop().then(() => (stopped = true));
    await sleep(5);
    expect(stopped).toBe(false);
    expect(drainer.isStopped).toBe(true);
    finish();
    await stopping;
    drainer.schedule(0);
    await sleep(20);
    expect(runs()).toBe(1);
  });
});
