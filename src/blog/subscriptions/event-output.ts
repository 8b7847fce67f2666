import type { Duplex } from 'node:stream';

import { ExecutionArgs, ExecutionResult, FormattedExecutionResult, GraphQLError } from 'graphql';
import type { WebSocket } from 'ws';

import { BlogContext } from '../blog-context';
import { formatSocketError } from '../common/errors';
import { RequestScope } from '../common/request-scope';
import {
  collapsedTooLargeResult,
  fitsInBytes,
  jsonWithin,
  responseTooLargeResult,
} from '../common/response-size';

/**
 * What the events of subscriptions send: errors masked as over HTTP, each answer held to the
 * response limit, and the writes of one turn of the event loop corked into one system call.
 */
export class EventOutput {
  private readonly corked = new Set<Duplex>();
  /** The TCP stream under each WebSocket, kept at upgrade rather than read from `ws` internals. */
  private readonly streams = new WeakMap<WebSocket, Duplex>();
  /** Whether an event's result fits the response limit, measured once per result. */
  private readonly resultFits = new WeakMap<ExecutionResult, boolean>();

  constructor(
    private readonly maxResponseBytes: number,
    private readonly hideSuggestions: boolean,
  ) {}

  /** Remembers the TCP stream under `socket`, to cork it. */
  track(socket: WebSocket, stream: Duplex): void {
    this.streams.set(socket, stream);
  }

  /** A fresh response budget, for an operation or the next event of a subscription. */
  scope(): RequestScope {
    const scope = new RequestScope();
    scope.limitResponse(this.maxResponseBytes);
    return scope;
  }

  /** graphql-ws's `onNext`: the event's answer as the client gets it (undefined: as it is). */
  next(
    socket: WebSocket,
    args: ExecutionArgs,
    result: ExecutionResult,
  ): FormattedExecutionResult | ExecutionResult | undefined {
    this.corkUntilNextTurn(socket);
    (args.contextValue as BlogContext).scope = this.scope();
    if (!this.fits(result)) return responseTooLargeResult(this.maxResponseBytes);
    return result.errors ? { ...result, errors: this.errors(result.errors) } : undefined;
  }

  /** Errors as the client sees them, masked as over HTTP. */
  errors(errors: readonly GraphQLError[]): GraphQLError[] {
    return errors.map((error) => formatSocketError(error, this.hideSuggestions));
  }

  /**
   * False when execution stopped for passing the budget or when the result's JSON passes the
   * limit, or is longer than a string can be (measured once per result, which the subscribers
   * of an event may share).
   */
  private fits(result: ExecutionResult): boolean {
    let fits = this.resultFits.get(result);
    if (fits === undefined) {
      const stopped = result.errors && collapsedTooLargeResult(result);
      const json = stopped ? null : jsonWithin(result);
      fits = json !== null && fitsInBytes(json, this.maxResponseBytes);
      this.resultFits.set(result, fits);
    }
    return fits;
  }

  /**
   * Holds a socket's writes until the event loop's next turn, so that the events a fan-out sends
   * one connection in one turn leave in one system call rather than one each.
   */
  private corkUntilNextTurn(socket: WebSocket): void {
    const stream = this.streams.get(socket);
    if (!stream || this.corked.has(stream)) return;
    stream.cork();
    this.corked.add(stream);
    if (this.corked.size > 1) return;
    setImmediate(() => {
      for (const corked of this.corked) corked.uncork();
      this.corked.clear();
    });
  }
}
