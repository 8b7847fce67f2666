import { Inject, Injectable } from '@nestjs/common';
import { createSourceEventStream, execute, ExecutionArgs, ExecutionResult } from 'graphql';
import { PubSubEngine } from 'graphql-subscriptions';

import { BlogContext } from '../blog-context';
import { BlogLoadersFactory } from '../blog-loaders';
import { EventScope } from './event-scope';
import { EventStream, isAsyncIterable, mapEvents } from './event-stream';
import { BLOG_PUB_SUB } from '../events/pub-sub';
import { UsersService } from '../users/users.service';

/** Subscribers an event reaches in one turn of the event loop; the rest wait for later turns. */
export const SUBSCRIBERS_PER_TURN = 250;

/** Events whose shared reads are kept, and for how long: a fan-out ends well within both. */
const KEPT_EVENTS = 32;
const KEPT_EVENT_MS = 2_000;

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

  /**
   * Hands `event` to the channel's subscribers. An event addressed to one user (it names its
   * `recipientId`) goes to that user's subscriptions only, and only their viewer is re-read.
   */
  private deliver(channel: Channel, event: object): void {
    const recipientId = (event as { recipientId?: unknown }).recipientId;
    const streams =
      typeof recipientId === 'string'
        ? [...channel.streams].filter((stream) => stream.context?.viewer?.id === recipientId)
        : [...channel.streams];
    if (streams.length === 0) return;
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
