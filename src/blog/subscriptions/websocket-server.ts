import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  FormattedExecutionResult,
  GraphQLError,
  GraphQLSchema,
  getOperationAST,
  parse,
  validate,
} from 'graphql';
import { CloseCode, Context, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { LRUCache } from 'lru-cache';
import { WebSocket, WebSocketServer } from 'ws';

import {
  AccessTokenService,
  Authentication,
  isTokenRefusal,
  tokenRefusal,
} from '../auth/access-token.service';
import { BlogContext } from '../blog-context';
import { BlogModuleOptions, BlogSubscriptionsOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { SubscriptionFanOut } from './event-fan-out';
import {
  badRequest,
  formatSocketError,
  parseFailed,
  tooManyRequests,
  unauthenticated,
  validationFailed,
} from '../common/errors';
import { RequestScope } from '../common/request-scope';
import {
  collapsedTooLargeResult,
  DEFAULT_MAX_RESPONSE_BYTES,
  fitsInBytes,
  responseTooLargeResult,
} from '../common/response-size';
import { TrustedDocuments } from '../documents/trusted-documents';
import { documentKeyOf, OperationRules } from '../limits/operation-rules';

/** Close code when the token is bad, has expired, or its user is gone. */
export const WS_UNAUTHORIZED = 4401;

export const DEFAULT_SUBSCRIPTIONS_OPTIONS = {
  path: '/graphql',
  maxPayloadBytes: 1_048_576,
  maxSubscriptionsPerConnection: 50,
  maxSubscriptionsPerClient: 500,
  maxSubscriptions: 10_000,
  maxConnectionsPerClient: 100,
} as const;

/** Timers cannot wait longer than this (about 24.8 days); a later expiry is checked per event. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type SocketExtra = {
  socket: WebSocket;
  request: IncomingMessage;
  /** The signed-in user, or null (anonymous), once `connection_init` has been accepted. */
  authentication?: Authentication | null;
  expiryTimer?: NodeJS.Timeout;
  /** The ids of this connection's subscriptions that hold a slot of the caps. */
  slots?: Set<string>;
};

/** A WebSocket connection as the `connectionOpened` and `connectionClosed` events report it. */
export interface SocketConnectionInfo {
  clientAddress: string;
  /** The signed-in user, once `connection_init` has been accepted. */
  userId: string | null;
  /** On close: its code, and how long the connection was open. */
  code?: number;
  durationMs?: number;
}

/** What {@link BlogWebSocketServer.events} emits, for logs and metrics. */
export interface BlogWebSocketEvents {
  connectionOpened: [SocketConnectionInfo];
  connectionClosed: [SocketConnectionInfo];
}

/** Close code and reason when the server shuts down. */
export const WS_GOING_AWAY = 1001;

type WsContext = Context<Record<string, unknown>, SocketExtra>;

/** A subscription document that parsed and validated, with its key for the operation rules. */
interface ParsedDocument {
  document: DocumentNode;
  key: string;
}

/** Documents kept parsed and validated: by count, and by the length of their text. */
const MAX_CACHED_DOCUMENTS = 500;
const MAX_CACHED_DOCUMENT_BYTES = 2 * 1024 * 1024;

/**
 * The graphql-ws endpoint (on the GraphQL path of the host's HTTP server). It runs
 * subscriptions only, through the same rules as HTTP: the same validation, the operation
 * limits of {@link OperationRules}, the same error masking, and no schema suggestions when
 * the host hides them. Messages are capped in size; connections per client address, and
 * subscriptions per connection, per client address and in all, are capped; and the viewer is
 * re-read before every operation and event, so an expired token, a deleted user or a revoked
 * role takes effect at once (the socket closes with 4401). An event's reads and executions are
 * shared by its subscribers ({@link SubscriptionFanOut}).
 */
@Injectable()
export class BlogWebSocketServer
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  /** Connections opened and closed, for logs and metrics. */
  readonly events = new EventEmitter<BlogWebSocketEvents>();
  private openSubscriptionCount = 0;
  private readonly subscriptionsPerClient = new Map<string, number>();
  private readonly corked = new Set<Duplex>();
  /** The TCP stream under each WebSocket, kept at upgrade rather than read from `ws` internals. */
  private readonly streams = new WeakMap<WebSocket, Duplex>();
  private readonly documents = new LRUCache<string, ParsedDocument>({
    max: MAX_CACHED_DOCUMENTS,
    maxSize: MAX_CACHED_DOCUMENT_BYTES,
    sizeCalculation: (_parsed, query) => Math.max(query.length, 1),
  });
  private readonly logger = new Logger('Subscriptions');
  private readonly settings: Required<Omit<BlogSubscriptionsOptions, 'clientAddress'>> &
    Pick<BlogSubscriptionsOptions, 'clientAddress'>;
  private readonly connectionsPerClient = new Map<string, number>();
  private readonly connectionInfo = new WeakMap<IncomingMessage, SocketConnectionInfo>();
  /** Whether an event's result fits the response limit, measured once per result. */
  private readonly resultFits = new WeakMap<ExecutionResult, boolean>();
  private server?: Server;
  private wss?: WebSocketServer;
  private dispose?: () => void | Promise<void>;
  private schema?: GraphQLSchema;

  constructor(
    @Inject(BLOG_MODULE_OPTIONS) private readonly options: BlogModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly tokens: AccessTokenService,
    private readonly rules: OperationRules,
    private readonly fanOut: SubscriptionFanOut,
  ) {
    this.settings = {
      ...DEFAULT_SUBSCRIPTIONS_OPTIONS,
      ...(options.subscriptions === false ? {} : options.subscriptions),
    };
  }

  onApplicationBootstrap(): void {
    if (this.options.subscriptions === false) return;
    this.schema = this.moduleRef.get(GraphQLSchemaHost, { strict: false }).schema;
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.settings.maxPayloadBytes });
    const disposable = useServer<Record<string, unknown>, SocketExtra>(
      {
        schema: this.schema,
        subscribe: this.fanOut.subscribe,
        onConnect: (ctx) => this.onConnect(ctx),
        onSubscribe: (ctx, id, payload) => this.onSubscribe(ctx, id, payload),
        onNext: (ctx, _id, _payload, args, result) => {
          this.corkUntilNextTurn(ctx.extra.socket);
          const tooLarge = this.tooLarge(args, result);
          if (tooLarge) return tooLarge;
          return result.errors
            ? {
                ...result,
                errors: result.errors.map((error) =>
                  formatSocketError(error, this.hideSuggestions),
                ),
              }
            : undefined;
        },
        onError: (_ctx, _id, _payload, errors) =>
          errors.map((error) => formatSocketError(error, this.hideSuggestions)),
        onComplete: (ctx, id) => this.releaseSlot(ctx, id),
        onClose: (ctx) => {
          clearTimeout(ctx.extra.expiryTimer);
          for (const id of ctx.extra.slots ?? []) this.releaseSlot(ctx, id);
        },
      },
      this.wss,
    );
    this.dispose = () => disposable.dispose();
    this.server.on('upgrade', this.onUpgrade);
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

  /** Subscriptions running now, on every connection. */
  get openSubscriptions(): number {
    return this.openSubscriptionCount;
  }

  /** Open WebSocket connections. */
  get openConnections(): number {
    return this.wss?.clients.size ?? 0;
  }

  /**
   * Ends every connection with 1001 as the application starts to shut down, so clients can
   * reconnect elsewhere and the HTTP server's close does not wait on open sockets.
   */
  async onModuleDestroy(): Promise<void> {
    this.server?.off('upgrade', this.onUpgrade);
    // Wait for each socket to close, so that its subscriptions have let go of the PubSub
    // (a Redis one may be closed next) before shutdown goes on.
    await Promise.all([...(this.wss?.clients ?? [])].map(closeGoingAway));
  }

  async onApplicationShutdown(): Promise<void> {
    this.server?.off('upgrade', this.onUpgrade);
    await this.dispose?.();
    this.wss?.close();
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const wss = this.wss;
    // Refused already, by the host's own cap on connections per client.
    if (!socket.writable) return;
    if (!wss || !this.isOurPath(request.url)) {
      // No other handler: an upgrade nobody answers would hold its socket forever.
      if (this.server?.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    const client = this.settings.clientAddress?.(request) ?? request.socket.remoteAddress ?? '';
    const open = this.connectionsPerClient.get(client) ?? 0;
    if (open >= this.settings.maxConnectionsPerClient) {
      socket.end(
        'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n' +
          'Content-Length: 39\r\n\r\nToo many WebSocket connections open.\r\n\r\n',
      );
      return;
    }
    this.connectionsPerClient.set(client, open + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = (this.connectionsPerClient.get(client) ?? 1) - 1;
      if (left > 0) this.connectionsPerClient.set(client, left);
      else this.connectionsPerClient.delete(client);
    };
    socket.once('close', release);
    wss.handleUpgrade(request, socket, head, (ws) => {
      this.streams.set(ws, socket);
      const info: SocketConnectionInfo = { clientAddress: client, userId: null };
      const openedAt = Date.now();
      this.connectionInfo.set(request, info);
      ws.once('close', (code) => {
        release();
        this.events.emit('connectionClosed', { ...info, code, durationMs: Date.now() - openedAt });
      });
      this.events.emit('connectionOpened', info);
      wss.emit('connection', ws, request);
    });
  };

  private isOurPath(url: string | undefined): boolean {
    const path = (url ?? '').split('?')[0];
    return path === this.settings.path || path === `${this.settings.path}/`;
  }

  private async onConnect(ctx: WsContext): Promise<boolean> {
    const { socket } = ctx.extra;
    const params = ctx.connectionParams;
    try {
      const authentication = await this.tokens.authenticate(
        params?.authorization ?? params?.Authorization,
      );
      ctx.extra.authentication = authentication;
      const info = this.connectionInfo.get(ctx.extra.request);
      if (info) info.userId = authentication?.user.id ?? null;
      if (authentication) this.closeAtExpiry(ctx.extra, authentication);
      return true;
    } catch (error) {
      if (this.closeRefused(socket, error)) return false;
      this.logger.error(
        'Could not authenticate a WebSocket connection',
        error instanceof Error ? error.stack : error,
      );
      socket.close(CloseCode.InternalServerError, 'Internal server error');
      return false;
    }
  }

  /** Closes the socket of a refused token with 4401 and the message HTTP answers it with. */
  private closeRefused(socket: WebSocket, error: unknown): boolean {
    if (!isTokenRefusal(error)) return false;
    socket.close(WS_UNAUTHORIZED, `Unauthorized: ${error.message}`);
    return true;
  }

  private closeAtExpiry(extra: SocketExtra, authentication: Authentication): void {
    const wait = authentication.expiresAt - Date.now();
    if (wait > MAX_TIMER_MS) return;
    extra.expiryTimer = setTimeout(
      () => this.closeRefused(extra.socket, tokenRefusal('expired')),
      Math.max(wait, 0),
    );
    extra.expiryTimer.unref();
  }

  private async onSubscribe(
    ctx: WsContext,
    id: string,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const schema = this.schema as GraphQLSchema;
    if (Object.keys(ctx.subscriptions).length > this.settings.maxSubscriptionsPerConnection) {
      return [
        tooManyRequests(
          `At most ${this.settings.maxSubscriptionsPerConnection} subscriptions may be open on one connection.`,
        ),
      ];
    }
    let query: string;
    try {
      query = this.moduleRef.get(TrustedDocuments, { strict: false }).documentFor(payload) ?? '';
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const parsed = this.parsed(schema, query);
    if (Array.isArray(parsed)) return parsed;
    const { document, key } = parsed as ParsedDocument;
    const operation = getOperationAST(document, payload.operationName);
    if (operation?.operation !== 'subscription') {
      return [
        badRequest(
          'Only subscriptions run over the WebSocket; send queries and mutations to POST /graphql.',
        ),
      ];
    }
    try {
      this.rules.check(schema, document, key, payload.operationName, payload.variables);
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const contextValue = this.operationContext(ctx);
    if (!(await contextValue.refreshViewer?.())) {
      return [unauthenticated('The connection has ended.')];
    }
    const full = this.takeSlot(ctx, id);
    if (full) return [full];
    const args: ExecutionArgs = {
      schema,
      document,
      operationName: payload.operationName,
      variableValues: payload.variables,
      contextValue,
    };
    this.fanOut.shareResults(
      args,
      `${key}\0${payload.operationName ?? ''}\0${JSON.stringify(payload.variables ?? {})}`,
    );
    return args;
  }

  /**
   * The document of `query`, parsed and validated once for every subscription that sends the
   * same text (a burst of subscribes is otherwise a burst of validations), or its refusals.
   */
  private parsed(schema: GraphQLSchema, query: string): ParsedDocument | GraphQLError[] {
    const known = this.documents.get(query);
    if (known) return known;
    let document: DocumentNode;
    try {
      document = parse(query, this.rules.parseOptions);
    } catch (error) {
      return [parseFailed((error as GraphQLError).message)];
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0) {
      return invalid.map((error) => validationFailed(error.message));
    }
    const parsed = { document, key: documentKeyOf(query) };
    this.documents.set(query, parsed);
    return parsed;
  }

  /**
   * Takes a slot for subscription `id` under the caps per client address and in all, or says
   * which cap is full. Checked and taken with no wait between, so concurrent subscribes cannot
   * pass a cap together; released when the subscription completes or its socket closes.
   */
  private takeSlot(ctx: WsContext, id: string): GraphQLError | undefined {
    const client = this.clientOf(ctx);
    const held = this.subscriptionsPerClient.get(client) ?? 0;
    if (held >= this.settings.maxSubscriptionsPerClient) {
      return tooManyRequests(
        `At most ${this.settings.maxSubscriptionsPerClient} subscriptions may be open from one client address.`,
      );
    }
    if (this.openSubscriptionCount >= this.settings.maxSubscriptions) {
      return tooManyRequests(
        'The server has as many subscriptions open as it serves; try again later.',
      );
    }
    this.subscriptionsPerClient.set(client, held + 1);
    this.openSubscriptionCount += 1;
    (ctx.extra.slots ??= new Set()).add(id);
    return undefined;
  }

  private releaseSlot(ctx: WsContext, id: string): void {
    if (!ctx.extra.slots?.delete(id)) return;
    this.openSubscriptionCount -= 1;
    const client = this.clientOf(ctx);
    const left = (this.subscriptionsPerClient.get(client) ?? 1) - 1;
    if (left > 0) this.subscriptionsPerClient.set(client, left);
    else this.subscriptionsPerClient.delete(client);
  }

  private clientOf(ctx: WsContext): string {
    return this.connectionInfo.get(ctx.extra.request)?.clientAddress ?? '';
  }

  /**
   * The response limit of an event: its answer, once executed, is the RESPONSE_TOO_LARGE error
   * alone when execution stopped for passing the budget or when its JSON passes the limit
   * (measured once per result, which the subscribers of an event may share). The subscription's
   * next event starts with a full budget.
   */
  private tooLarge(args: ExecutionArgs, result: ExecutionResult): FormattedExecutionResult | null {
    const maxBytes = this.maxResponseBytes;
    (args.contextValue as BlogContext).scope = this.eventScope();
    let fits = this.resultFits.get(result);
    if (fits === undefined) {
      fits =
        !(result.errors && collapsedTooLargeResult(result)) &&
        fitsInBytes(JSON.stringify(result), maxBytes);
      this.resultFits.set(result, fits);
    }
    return fits ? null : responseTooLargeResult(maxBytes);
  }

  private get hideSuggestions(): boolean {
    return this.options.hideSchemaDetails ?? false;
  }

  private get maxResponseBytes(): number {
    return this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** A fresh budget for the next event of a subscription. */
  private eventScope(): RequestScope {
    const scope = new RequestScope();
    scope.limitResponse(this.maxResponseBytes);
    return scope;
  }

  /** The context of one operation: the connection's viewer, re-read on demand. */
  private operationContext(ctx: WsContext): BlogContext {
    const extra = ctx.extra;
    const context: BlogContext = {
      viewer: extra.authentication?.user ?? null,
      scope: this.eventScope(),
      refreshViewer: async (findUser) => {
        const current = extra.authentication;
        if (current === undefined || extra.socket.readyState !== WebSocket.OPEN) return false;
        if (current === null) return true;
        try {
          extra.authentication = await this.tokens.recheck(current, findUser);
        } catch (error) {
          if (!this.closeRefused(extra.socket, error)) {
            this.logger.error(
              'Could not re-read the viewer of a WebSocket connection',
              error instanceof Error ? error.stack : error,
            );
          }
          return false;
        }
        context.viewer = extra.authentication.user;
        context.viewerResolution = Promise.resolve(context.viewer);
        context.loaders = undefined;
        return true;
      },
    };
    return context;
  }
}

/** Sockets that do not answer the close handshake in time are cut. */
const CLOSE_GRACE_MS = 3_000;

function closeGoingAway(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cut);
      setImmediate(resolve);
    });
    socket.close(WS_GOING_AWAY, 'Server shutting down');
  });
}
