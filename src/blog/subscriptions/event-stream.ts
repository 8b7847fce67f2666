import { GraphQLError } from 'graphql';

import { BlogContext } from '../blog-context';
import { tooManyRequests } from '../common/errors';

/** Events a subscription may fall behind by; one that falls further behind is ended. */
export const MAX_QUEUED_EVENTS = 100;

/**
 * The events of one subscription: pushed by its channel, pulled by graphql-ws. Its queue is
 * bounded: a subscriber that falls {@link MAX_QUEUED_EVENTS} behind (a client that stopped
 * reading) is ended with TOO_MANY_REQUESTS rather than held in memory.
 */
export class EventStream implements AsyncIterableIterator<object> {
  private readonly queue: object[] = [];
  private waiting?: {
    resolve: (result: IteratorResult<object>) => void;
    reject: (error: unknown) => void;
  };
  private ended = false;
  private failure?: GraphQLError;

  constructor(
    readonly context: BlogContext | undefined,
    private readonly ready: Promise<unknown>,
    private readonly leave: (stream: EventStream) => void,
  ) {}

  push(event: object): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ value: event, done: false });
    } else if (this.queue.length < MAX_QUEUED_EVENTS) {
      this.queue.push(event);
    } else {
      this.fail(
        tooManyRequests(
          `The subscription fell ${MAX_QUEUED_EVENTS} events behind and was ended; subscribe again.`,
        ),
      );
    }
  }

  async next(): Promise<IteratorResult<object>> {
    await this.ready;
    const queued = this.queue.shift();
    if (queued) return { value: queued, done: false };
    if (this.failure) throw this.failure;
    if (this.ended) return { value: undefined, done: true };
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async return(): Promise<IteratorResult<object>> {
    this.end();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<object>> {
    this.end();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private fail(error: GraphQLError): void {
    this.failure = error;
    const waiting = this.waiting;
    this.waiting = undefined;
    this.end();
    waiting?.reject(error);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.leave(this);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
  }
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * `source` with `map` applied to each value. `return()` reaches the source at once, even while a
 * `next()` waits on it, so that a completed subscription lets go of its channel straight away.
 */
export function mapEvents<T, R>(
  source: AsyncIterable<T>,
  map: (value: T) => Promise<R>,
): AsyncGenerator<R, void, void> {
  const iterator = source[Symbol.asyncIterator]();
  const done = (): IteratorResult<R, void> => ({ value: undefined, done: true });
  const mapped: AsyncGenerator<R, void, void> = {
    async next() {
      const next = await iterator.next();
      return next.done ? done() : { value: await map(next.value), done: false };
    },
    async return() {
      await iterator.return?.();
      return done();
    },
    async throw(error: unknown) {
      await iterator.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
