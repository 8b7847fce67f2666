import { BackgroundDrain } from './background-drain';

const DELAY_MS = 20;
const RETRY_MS = 1000;

describe('BackgroundDrain', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /**
   * A drain that counts its runs, each ending when the test says: as it is told (`finish`), by
   * failing (`fail`), or by leaving something it could not take (`leave`).
   */
  function counting() {
    let runs = 0;
    let end: (outcome: boolean | Error) => void = () => {};
    const warn = jest.fn();
    const drainer = new BackgroundDrain(
      async () => {
        runs += 1;
        const outcome = await new Promise<boolean | Error>((done) => (end = done));
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      { delayMs: DELAY_MS, retryMs: RETRY_MS, task: 'count the test runs', logger: { warn } },
    );
    const endRun = async (outcome: boolean | Error) => {
      end(outcome);
      await jest.advanceTimersByTimeAsync(0);
    };
    return {
      drainer,
      warn,
      runs: () => runs,
      finish: () => endRun(false),
      fail: (message: string) => endRun(new Error(message)),
      leave: () => endRun(true),
    };
  }

  it('should run once for the requests of one delay, after it', async () => {
    const { drainer, runs, finish } = counting();
    drainer.request();
    await jest.advanceTimersByTimeAsync(DELAY_MS - 5);
    drainer.request();
    drainer.request();
    expect(runs()).toBe(0);
    await jest.advanceTimersByTimeAsync(5);
    expect(runs()).toBe(1);
    await finish();
    await jest.advanceTimersByTimeAsync(10 * RETRY_MS);
    expect(runs()).toBe(1);
  });

  it('should run at once and then every interval with requestEvery, until stopped', async () => {
    const { drainer, runs, finish } = counting();
    drainer.requestEvery(5 * RETRY_MS);
    await jest.advanceTimersByTimeAsync(DELAY_MS);
    expect(runs()).toBe(1);
    await finish();
    await jest.advanceTimersByTimeAsync(5 * RETRY_MS - DELAY_MS - 1);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(1 + DELAY_MS);
    expect(runs()).toBe(2);
    await finish();
    await drainer.stop();
    await jest.advanceTimersByTimeAsync(20 * RETRY_MS);
    expect(runs()).toBe(2);
  });

  it('should join the run under way, and run again after it for a request made meanwhile', async () => {
    const { drainer, runs, finish } = counting();
    const first = drainer.runNow();
    const joined = drainer.runNow();
    drainer.request();
    await jest.advanceTimersByTimeAsync(5 * DELAY_MS);
    expect(runs()).toBe(1);
    await finish();
    await Promise.all([first, joined]);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(DELAY_MS);
    expect(runs()).toBe(2);
    await finish();
  });

  it('should settle once the run under way and what was requested before the call have run', async () => {
    const { drainer, runs, finish } = counting();
    const settledNow = jest.fn();
    void drainer.settled().then(settledNow);
    await jest.advanceTimersByTimeAsync(0);
    expect(settledNow).toHaveBeenCalled();
    expect(runs()).toBe(0);

    drainer.request();
    const settled = jest.fn();
    void drainer.settled().then(settled);
    await jest.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1);
    expect(settled).not.toHaveBeenCalled();
    await finish();
    expect(settled).toHaveBeenCalled();
  });

  it('should log a run that failed, keep its work pending, and try again after the retry delay', async () => {
    const { drainer, warn, runs, fail, finish } = counting();
    drainer.request();
    await jest.advanceTimersByTimeAsync(DELAY_MS);
    await fail('disk I/O error');
    expect(warn).toHaveBeenCalledWith(
      `Could not count the test runs, trying again in ${RETRY_MS} ms: disk I/O error`,
    );
    await jest.advanceTimersByTimeAsync(RETRY_MS - 1);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    await finish();
    await jest.advanceTimersByTimeAsync(10 * RETRY_MS);
    expect(runs()).toBe(2);
  });

  it('should let settled() run at once what a failed run left pending', async () => {
    const { drainer, runs, fail, finish } = counting();
    drainer.request();
    await jest.advanceTimersByTimeAsync(DELAY_MS);
    await fail('database is locked');
    const settled = jest.fn();
    void drainer.settled().then(settled);
    await jest.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(2);
    await finish();
    expect(settled).toHaveBeenCalled();
  });

  it('should look again after the retry delay at what a run left, without making settled() wait', async () => {
    const { drainer, warn, runs, leave, finish } = counting();
    void drainer.runNow();
    await leave();
    const settled = jest.fn();
    void drainer.settled().then(settled);
    await jest.advanceTimersByTimeAsync(0);
    expect(settled).toHaveBeenCalled();
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(RETRY_MS);
    expect(runs()).toBe(2);
    await finish();
    await jest.advanceTimersByTimeAsync(10 * RETRY_MS);
    expect(runs()).toBe(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('should run no more once stopped, after the run under way has ended', async () => {
    const { drainer, runs, finish } = counting();
    void drainer.runNow();
    drainer.request();
    let stopped = false;
    const stopping = drainer.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(5);
    expect(stopped).toBe(false);
    expect(drainer.isStopped).toBe(true);
    await finish();
    await stopping;
    drainer.request();
    await drainer.settled();
    await jest.advanceTimersByTimeAsync(10 * RETRY_MS);
    expect(runs()).toBe(1);
  });
});
