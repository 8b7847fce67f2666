import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

import type { GraphQLError } from 'graphql';

import { clientClosedRequest, responseTooLarge } from './errors';

/**
 * The life of one operation on the server: it stops when its client goes away (HTTP) or when
 * its answer grows past the response limit, and then every statement and root field it has
 * not started yet is refused with the reason ({@link throwIfStopped}). A transaction under way
 * is never cut: the checks sit before statements outside transactions, before a transaction
 * begins, and before each root field.
 *
 * It also keeps the answer's byte budget: the resolvers of large values (post content, comment
 * text) charge their size, and the first charge past the limit stops the operation with
 * RESPONSE_TOO_LARGE, so execution ends long before a large answer is built.
 */
export class RequestScope {
  private readonly controller = new AbortController();
  private maxResponseBytes = Infinity;
  private responseBytesLeft = Infinity;

  /** Aborted, with the error that stopped the operation as its reason, once it must stop. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  /** Stops the operation with `reason`; the first reason stays. */
  stop(reason: GraphQLError): void {
    if (!this.stopped) this.controller.abort(reason);
  }

  /** Throws the reason the operation stopped for, if it has. */
  throwIfStopped(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  /** Caps the answer at `maxBytes` from now on, with a full budget. */
  limitResponse(maxBytes: number): void {
    this.maxResponseBytes = maxBytes;
    this.responseBytesLeft = maxBytes;
  }

  /**
   * Gives the answer its whole budget again, for a run whose answer replaces all that was charged
   * before it: a compiled run that answered errors is discarded and run again on graphql-js (see
   * CompiledExecution), whose answer must fit the limit as it would alone. A stopped operation
   * stays stopped.
   */
  restartResponseBudget(): void {
    this.responseBytesLeft = this.maxResponseBytes;
  }

  /**
   * Takes `bytes` (an estimate of a value's share of the answer) from the budget; past it, the
   * operation stops with RESPONSE_TOO_LARGE and that error is thrown. Throws too once stopped.
   */
  chargeResponse(bytes: number): void {
    this.throwIfStopped();
    this.responseBytesLeft -= bytes;
    if (this.responseBytesLeft >= 0) return;
    this.stop(responseTooLarge(this.maxResponseBytes));
    this.throwIfStopped();
  }
}

const current = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `work`, and everything it starts, in `scope`: the blog's SQL runner then refuses the
 * statements of a stopped operation. The host calls it around each request (the standalone
 * service in a Fastify `preHandler` hook), after any queue the request waits in.
 */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return current.run(scope, work);
}

/** The scope of the operation this code runs for, if any. */
export function currentRequestScope(): RequestScope | undefined {
  return current.getStore();
}

/**
 * Runs `work` outside any operation's scope: for work that a request starts and that must
 * outlive it (its events' delivery to subscribers).
 */
export function outsideRequestScope<T>(work: () => T): T {
  return current.exit(work);
}

/** Throws if the operation this code runs for has stopped. */
export function throwIfRequestStopped(): void {
  current.getStore()?.throwIfStopped();
}

/**
 * The scope of an HTTP request, stopped with CLIENT_CLOSED_REQUEST when its connection closes
 * before the answer is sent (Node emits `close` on the response then, and after a full answer).
 */
export function httpRequestScope(response: ServerResponse): RequestScope {
  const scope = new RequestScope();
  response.once('close', () => {
    if (!response.writableFinished) scope.stop(clientClosedRequest());
  });
  return scope;
}
