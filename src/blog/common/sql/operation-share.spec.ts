import { OperationShare } from './operation-share';
import { clientClosedRequest, ErrorCode } from '../errors';
import { RequestScope } from '../request-scope';

/** A piece of work that ends when told to, and says how many of its kind run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const work = () => {
    running += 1;
    most = Math.max(most, running);
    return new Promise<void>((resolve) =>
      releases.push(() => {
        running -= 1;
        resolve();
      }),
    );
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { work, releaseAll, most: () => most, started: () => releases.length };
}

describe('OperationShare', () => {
  it('should take half of the pool, and at least one', () => {
    expect(OperationShare.half(10).perOperation).toBe(5);
    expect(OperationShare.half(3).perOperation).toBe(1);
    expect(OperationShare.half(1).perOperation).toBe(1);
  });

  it("should run at most its share of one operation's statements at once", async () => {
    const share = new OperationShare(2);
    const scope = new RequestScope();
    const { work, releaseAll, most } = gate();
    const all = Promise.all([1, 2, 3, 4, 5].map(() => share.run(scope, work)));
    await new Promise((resolve) => setImmediate(resolve));
    await releaseAll();
    await all;
    expect(most()).toBe(2);
  });

  it("should not count one operation's statements against another's", async () => {
    const share = new OperationShare(1);
    const { work, releaseAll, started } = gate();
    const first = share.run(new RequestScope(), work);
    const second = share.run(new RequestScope(), work);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started()).toBe(2);
    await releaseAll();
    await Promise.all([first, second]);
  });

  it('should not limit statements outside any operation', async () => {
    const share = new OperationShare(1);
    const { work, releaseAll, most } = gate();
    const all = Promise.all([1, 2, 3].map(() => share.run(undefined, work)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(most()).toBe(3);
    await releaseAll();
    await all;
  });

  it('should start none of the waiting statements of an operation that stops', async () => {
    const share = new OperationShare(1);
    const scope = new RequestScope();
    const { work, releaseAll, started } = gate();
    const running = share.run(scope, work);
    const waiting = share.run(scope, work);
    await new Promise((resolve) => setImmediate(resolve));
    scope.stop(clientClosedRequest());
    await expect(waiting).rejects.toMatchObject({
      extensions: { code: ErrorCode.ClientClosedRequest },
    });
    expect(started()).toBe(1);
    await releaseAll();
    await running;
  });
});
