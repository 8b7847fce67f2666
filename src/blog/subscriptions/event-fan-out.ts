import { Inject, Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import {
  createSourceEventStream,
  execute,
  ExecutionArgs,
  ExecutionResult,
  GraphQLError,
} from 'graphql';
import { PubSubEngine } from 'graphql-subscriptions';

import { BlogContext } from '../blog-context';
import { BlogLoaders, BlogLoadersFactory } from '../blog-loaders';
import { tooManyRequests } from '../common/errors';
import { byKeys } from '../common/loaders';
import { BLOG_PUB_SUB } from '../events/pub-sub';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** Subscribers an event reaches in one turn of the event loop; the rest wait for later turns. */
export const SUBSCRIBERS_PER_TURN = 250;

/** Events a subscription may fall behind by; one that falls further behind is ended. */
export const MAX_QUEUED_EVENTS = 100;

const STILL_CONNECTED = Promise.resolve(true);

/** Events whose shared reads are kept, and for how long: a fan-out ends well within both. */
const KEPT_EVENTS = 32;
const KEPT_EVENT_MS = 2_000;

/**
 * What one event costs, paid once and shared by all its subscribers: the rows no viewer changes
 * (the post, its author, its counts) through one set of loaders, the signed-in subscribers'
 * users re-read in one statement, and one execution per distinct subscription and viewer.
 */
export class EventScope {
  readonly startedAt = Date.now();
  private shared?: BlogLoaders;
  private readonly byViewer = new Map<string, BlogLoaders>();
  private users?: DataLoader<string, User | null>;
  private readonly refreshed = new WeakMap<BlogContext, Promise<boolean>>();
  private readonly results = new Map<string, Promise<ExecutionResult>>();

  constructor(
    private readonly factory: BlogLoadersFactory,
    private readonly usersService: UsersService,
  ) {}

  /** Loaders for what every viewer sees alike: one set for the event. */
  get loaders(): BlogLoaders {
    return (this.shared ??= this.factory.create(null));
  }

  /** `viewer`'s loaders for this event: their own flags, every other row shared. */
  loadersFor(viewer: Viewer): BlogLoaders {
    if (!viewer) return this.loaders;
    let loaders = this.byViewer.get(viewer.id);
    if (!loaders) {
      loaders = this.factory.create(viewer, this.loaders);
      this.byViewer.set(viewer.id, loaders);
    }
    return loaders;
  }

  /**
   * Re-reads the viewer of a subscription's context for this event, once (false: the connection
   * has ended). The users asked for before the event loop's next turn come from one statement.
   */
  refresh(context: BlogContext): Promise<boolean> {
    // An anonymous connection stays anonymous: there is no one to re-read.
    if (!context.viewer || !context.refreshViewer) return STILL_CONNECTED;
    let refreshed = this.refreshed.get(context);
    if (!refreshed) {
      refreshed = context.refreshViewer(this.findUser);
      this.refreshed.set(context, refreshed);
    }
    return refreshed;
  }

  private readonly findUser = (id: string): Promise<User | null> => {
    this.users ??= new DataLoader(
      async (ids: readonly string[]) =>
        byKeys(ids, await this.usersService.findByIds(ids), (user) => user.id),
      { batchScheduleFn: (run) => setImmediate(run) },
    );
    return this.users.load(id);
  };

  /** The result of `key` for this event, computed by the first subscriber that asks. */
  result(key: string, compute: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    let result = this.results.get(key);
    if (!result) {
      result = compute();
      this.results.set(key, result);
    }
    return result;
  }
}

/**
 * The events of one subscription: pushed by its channel, pulled by graphql-ws. Its queue is
 * bounded: a subscriber that falls {@link MAX_QUEUED_EVENTS} behind (a client that stopped
 * reading) is ended with TOO_MANY_REQUESTS rather than held in memory.
 */
class EventStream implements AsyncIterableIterator<object> {
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

/** One PubSub listener for a trigger, shared by every subscription to it on this instance. */
class Channel {
  readonly streams = new Set<EventStream>();
  readonly subscription: Promise<number>;

  constructor(pubSub: PubSubEngine, trigger: string, deliver: (event: object) => void) {
    this.subscription = Promise.resolve(pubSub.subscribe(trigger, deliver, {}));
  }
}

/**
 * Turns of the event loop handed to deliveries, in order of publication: a fixed number of
 * subscribers per turn, so that a large fan-out leaves room for other requests between its
 * slices, and each subscriber still gets its events in order.
 */
class Deliveries {
  private readonly jobs: { event: object; streams: EventStream[]; next: number }[] = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  add(event: object, streams: EventStream[]): void {
    this.jobs.push({ event, streams, next: 0 });
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.pump());
  }

  private pump(): void {
    this.scheduled = false;
    let budget = this.perTurn;
    while (budget > 0 && this.jobs.length > 0) {
      const job = this.jobs[0];
      const end = Math.min(job.streams.length, job.next + budget);
      for (let i = job.next; i < end; i += 1) job.streams[i].push(job.event);
      budget -= end - job.next;
      job.next = end;
      if (end === job.streams.length) this.jobs.shift();
    }
    if (this.jobs.length > 0) this.schedule();
  }
}

/**
 * The subscriptions' fan-out. One PubSub listener per trigger hands each event to its
 * subscribers a slice per turn of the event loop; the event's reads and executions are shared by
 * its subscribers ({@link EventScope}), and the signed-in ones have their viewers re-read in one
 * statement, asked for before the first slice.
 */
@Injectable()
export class SubscriptionFanOut {
  private readonly channels = new Map<string, Channel>();
  private readonly scopes = new Map<object, EventScope>();
  private readonly deliveries = new Deliveries(SUBSCRIBERS_PER_TURN);
  private readonly keys = new WeakMap<ExecutionArgs, string>();

  constructor(
    @Inject(BLOG_PUB_SUB) private readonly pubSub: PubSubEngine,
    private readonly loaders: BlogLoadersFactory,
    private readonly users: UsersService,
  ) {}

  /** The events of `trigger` for one subscription, whose context is `context`. */
  listen(trigger: string, context?: BlogContext): AsyncIterableIterator<object> {
    let channel = this.channels.get(trigger);
    if (!channel) {
      const opened = new Channel(this.pubSub, trigger, (event) => this.deliver(opened, event));
      channel = opened;
      this.channels.set(trigger, channel);
    }
    const joined = channel;
    const stream = new EventStream(context, joined.subscription, (left) => {
      joined.streams.delete(left);
      if (joined.streams.size > 0 || this.channels.get(trigger) !== joined) return;
      this.channels.delete(trigger);
      void joined.subscription.then(
        (id) => this.pubSub.unsubscribe(id),
        () => undefined,
      );
    });
    joined.streams.add(stream);
    return stream;
  }

  /** Subscriptions listening to `trigger` on this instance. */
  subscribers(trigger: string): number {
    return this.channels.get(trigger)?.streams.size ?? 0;
  }

  /** The shared state of one event (its payload, as the PubSub hands it to every listener). */
  scopeOf(event: object): EventScope {
    let scope = this.scopes.get(event);
    if (scope) return scope;
    this.forgetOldScopes();
    scope = new EventScope(this.loaders, this.users);
    this.scopes.set(event, scope);
    return scope;
  }

  /**
   * Marks `args` as one subscription whose results depend only on `key` (its document, operation
   * and variables) and the viewer, so that subscribers alike share one execution per event.
   */
  shareResults(args: ExecutionArgs, key: string): void {
    this.keys.set(args, key);
  }

  /** graphql-ws's `subscribe`: graphql-js's own, with each event's execution shared. */
  readonly subscribe = async (
    args: ExecutionArgs,
  ): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> => {
    const source = await createSourceEventStream(args);
    if (!isAsyncIterable(source)) return source;
    return mapEvents(source, (event) => this.execute(args, event));
  };

  private deliver(channel: Channel, event: object): void {
    const streams = [...channel.streams];
    const scope = this.scopeOf(event);
    for (const stream of streams) if (stream.context?.viewer) void scope.refresh(stream.context);
    this.deliveries.add(event, streams);
  }

  private execute(args: ExecutionArgs, event: unknown): Promise<ExecutionResult> {
    const run = async () => execute({ ...args, rootValue: event });
    const key = this.keys.get(args);
    if (key === undefined || typeof event !== 'object' || event === null) return run();
    const viewer = (args.contextValue as BlogContext | undefined)?.viewer ?? null;
    const viewerKey = viewer ? `${viewer.id}\0${viewer.role}` : '';
    return this.scopeOf(event).result(`${key}\0${viewerKey}`, run);
  }

  private forgetOldScopes(): void {
    const now = Date.now();
    for (const [event, scope] of this.scopes) {
      if (this.scopes.size < KEPT_EVENTS && now - scope.startedAt < KEPT_EVENT_MS) return;
      this.scopes.delete(event);
    }
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
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
function mapEvents<T, R>(
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
