import { Logger } from '@nestjs/common';
import { PubSubEngine } from 'graphql-subscriptions';

import { BlogEvent, BlogEvents, PUBLISH_TIMEOUT_MS } from './blog-events';

/** An engine whose publish does what `publish` says, as a Redis that is gone or answers late. */
function engine(publish: PubSubEngine['publish']): PubSubEngine {
  return { publish, subscribe: jest.fn(), unsubscribe: jest.fn() } as unknown as PubSubEngine;
}

describe('BlogEvents', () => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    errors.mockRestore();
  });

  it('should hand the event to the engine without making the caller wait for it', () => {
    const publish = jest.fn(() => new Promise<void>(() => undefined));
    const events = new BlogEvents(engine(publish));

    expect(events.postPublished('post-1')).toBeUndefined();
    return Promise.resolve().then(() => {
      expect(publish).toHaveBeenCalledWith(BlogEvent.PostPublished, { postId: 'post-1' });
    });
  });

  it('should log a publish that never answers once the bound has passed', async () => {
    const events = new BlogEvents(engine(() => new Promise<void>(() => undefined)));
    events.commentAdded('comment-1', 'post-1');

    await jest.advanceTimersByTimeAsync(PUBLISH_TIMEOUT_MS - 1);
    expect(errors).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(errors).toHaveBeenCalledWith(
      expect.stringMatching(/^Could not publish blog\.commentAdded: no answer within/),
      expect.anything(),
    );
  });

  it('should log a publish that fails, or an engine that throws', async () => {
    new BlogEvents(engine(() => Promise.reject(new Error('connection lost')))).postLikesChanged(
      'post-1',
    );
    new BlogEvents(
      engine(() => {
        throw new Error('listener threw');
      }),
    ).postPublished('post-2');
    await jest.advanceTimersByTimeAsync(0);

    expect(errors.mock.calls.map(([message]) => message).sort()).toEqual([
      'Could not publish blog.postLikesChanged: connection lost',
      'Could not publish blog.postPublished: listener threw',
    ]);
  });

  it('should log each publish at its own bound, with one timer for all', async () => {
    const events = new BlogEvents(engine(() => new Promise<void>(() => undefined)));
    events.commentAdded('comment-1', 'post-1');
    await jest.advanceTimersByTimeAsync(3000);
    events.postLikesChanged('post-2');
    events.postPublished('post-3');
    expect(jest.getTimerCount()).toBe(1);

    await jest.advanceTimersByTimeAsync(PUBLISH_TIMEOUT_MS - 3000);
    expect(errors.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/^Could not publish blog\.commentAdded: no answer within/),
    ]);
    await jest.advanceTimersByTimeAsync(2999);
    expect(errors).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(errors.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/^Could not publish blog\.commentAdded:/),
      expect.stringMatching(/^Could not publish blog\.postLikesChanged:/),
      expect.stringMatching(/^Could not publish blog\.postPublished:/),
    ]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should log nothing for publishes answered in time, and keep no timer after them', async () => {
    let answer!: () => void;
    const events = new BlogEvents(engine(() => new Promise<void>((resolve) => (answer = resolve))));
    events.postLikesChanged('post-1');
    await jest.advanceTimersByTimeAsync(1000);
    answer();
    await jest.advanceTimersByTimeAsync(PUBLISH_TIMEOUT_MS);
    expect(errors).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should log a publish that fails after its bound only once', async () => {
    let fail!: (error: Error) => void;
    const events = new BlogEvents(engine(() => new Promise<void>((_, reject) => (fail = reject))));
    events.postPublished('post-1');
    await jest.advanceTimersByTimeAsync(PUBLISH_TIMEOUT_MS);
    fail(new Error('late'));
    await jest.advanceTimersByTimeAsync(0);
    expect(errors.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/^Could not publish blog\.postPublished: no answer within/),
    ]);
  });
});
