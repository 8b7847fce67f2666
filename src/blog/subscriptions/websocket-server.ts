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
  GraphQLError,
  GraphQLSchema,
  getOperationAST,
  parse,
  validate,
} from 'graphql';
import { CloseCode, Context, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import {
  ConnectionAuthService,
  ConnectionParams,
  ConnectionViewer,
} from '../auth/connection-auth.service';
import { BlogContext } from '../blog-context';
import { BlogModuleOptions, BlogSubscriptionsOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { ErrorCode, formatGraphQLError } from '../common/errors';
import { TrustedDocuments } from '../documents/trusted-documents';
import { documentKeyOf, OperationRules } from '../limits/operation-rules';

/** Close code when the token is bad, has expired, or its user is gone. */
export const WS_UNAUTHORIZED = 4401;

export const DEFAULT_SUBSCRIPTIONS_OPTIONS = {
  path: '/graphql',
  maxPayloadBytes: 1_048_576,
  maxSubscriptionsPerConnection: 50,
  maxConnectionsPerClient: 100,
} as const;

/** Timers cannot wait longer than this (about 24.8 days); a later expiry is checked per event. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type SocketExtra = {
  socket: WebSocket;
  request: IncomingMessage;
  connection?: ConnectionViewer;
  expiryTimer?: NodeJS.Timeout;
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

const SUGGESTION = / ?Did you mean(.+?)\?$/;

function refused(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/**
 * The graphql-ws endpoint (on the GraphQL path of the host's HTTP server). It runs
 * subscriptions only, through the same rules as HTTP: the same validation, the operation
 * limits of {@link OperationRules}, the same error masking, and no schema suggestions when
 * the host hides them. Messages are capped in size, connections per client address and
 * subscriptions per connection are capped, and the viewer is re-read before every operation
 * and event, so an expired token, a deleted user or a revoked role takes effect at once
 * (the socket closes with 4401).
 */
@Injectable()
export class BlogWebSocketServer
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  /** Connections opened and closed, for logs and metrics. */
  readonly events = new EventEmitter<BlogWebSocketEvents>();
  private openSubscriptionCount = 0;
  private readonly logger = new Logger('Subscriptions');
  private readonly settings: Required<Omit<BlogSubscriptionsOptions, 'clientAddress'>> &
    Pick<BlogSubscriptionsOptions, 'clientAddress'>;
  private readonly connectionsPerClient = new Map<string, number>();
  private readonly connectionInfo = new WeakMap<IncomingMessage, SocketConnectionInfo>();
  private server?: Server;
  private wss?: WebSocketServer;
  private dispose?: () => void | Promise<void>;
  private schema?: GraphQLSchema;

  constructor(
    @Inject(BLOG_MODULE_OPTIONS) private readonly options: BlogModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly auth: ConnectionAuthService,
    private readonly rules: OperationRules,
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
        onConnect: (ctx) => this.onConnect(ctx),
        onSubscribe: (ctx, _id, payload) => this.onSubscribe(ctx, payload),
        onNext: (_ctx, _id, _payload, _args, result) =>
          result.errors ? { ...result, errors: result.errors.map(format) } : undefined,
        onError: (_ctx, _id, _payload, errors) => errors.map(format),
        onOperation: () => {
          this.openSubscriptionCount += 1;
        },
        onComplete: () => {
          this.openSubscriptionCount = Math.max(0, this.openSubscriptionCount - 1);
        },
        onClose: (ctx) => clearTimeout(ctx.extra.expiryTimer),
      },
      this.wss,
    );
    this.dispose = () => disposable.dispose();
    this.server.on('upgrade', this.onUpgrade);
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
    try {
      const result = await this.auth.authenticate(ctx.connectionParams as ConnectionParams);
      if ('rejected' in result) {
        socket.close(WS_UNAUTHORIZED, `Unauthorized: ${result.rejected}`);
        return false;
      }
      ctx.extra.connection = result;
      const info = this.connectionInfo.get(ctx.extra.request);
      if (info) info.userId = result.viewer?.id ?? null;
      this.closeAtExpiry(ctx.extra, result);
      return true;
    } catch (error) {
      this.logger.error(
        'Could not authenticate a WebSocket connection',
        error instanceof Error ? error.stack : error,
      );
      socket.close(CloseCode.InternalServerError, 'Internal server error');
      return false;
    }
  }

  private closeAtExpiry(extra: SocketExtra, connection: ConnectionViewer): void {
    if (connection.expiresAt === null) return;
    const wait = connection.expiresAt - Date.now();
    if (wait > MAX_TIMER_MS) return;
    extra.expiryTimer = setTimeout(
      () => extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized: the access token has expired'),
      Math.max(wait, 0),
    );
    extra.expiryTimer.unref();
  }

  private async onSubscribe(
    ctx: WsContext,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const schema = this.schema as GraphQLSchema;
    if (Object.keys(ctx.subscriptions).length > this.settings.maxSubscriptionsPerConnection) {
      return [
        refused(
          `At most ${this.settings.maxSubscriptionsPerConnection} subscriptions may be open on one connection.`,
          ErrorCode.TooManyRequests,
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
    let document: DocumentNode;
    try {
      document = parse(query, this.rules.parseOptions);
    } catch (error) {
      return [refused((error as GraphQLError).message, 'GRAPHQL_PARSE_FAILED')];
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0) {
      return invalid.map((error) =>
        refused(
          this.options.hideSchemaDetails ? error.message.replace(SUGGESTION, '') : error.message,
          'GRAPHQL_VALIDATION_FAILED',
        ),
      );
    }
    const operation = getOperationAST(document, payload.operationName);
    if (operation?.operation !== 'subscription') {
      return [
        refused(
          'Only subscriptions run over the WebSocket; send queries and mutations to POST /graphql.',
          'BAD_REQUEST',
        ),
      ];
    }
    try {
      this.rules.check(
        schema,
        document,
        documentKeyOf(query),
        payload.operationName,
        payload.variables,
      );
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const contextValue = this.operationContext(ctx);
    if (!(await contextValue.refreshViewer?.())) {
      return [refused('The connection has ended.', ErrorCode.Unauthenticated)];
    }
    return {
      schema,
      document,
      operationName: payload.operationName,
      variableValues: payload.variables,
      contextValue,
    };
  }

  /** The context of one operation: the connection's viewer, re-read on demand. */
  private operationContext(ctx: WsContext): BlogContext {
    const extra = ctx.extra;
    const context: BlogContext = {
      viewer: extra.connection?.viewer ?? null,
      refreshViewer: async () => {
        const current = extra.connection;
        if (!current || extra.socket.readyState !== WebSocket.OPEN) return false;
        let next: Awaited<ReturnType<ConnectionAuthService['refresh']>>;
        try {
          next = await this.auth.refresh(current);
        } catch (error) {
          this.logger.error(
            'Could not re-read the viewer of a WebSocket connection',
            error instanceof Error ? error.stack : error,
          );
          return false;
        }
        if ('rejected' in next) {
          extra.socket.close(WS_UNAUTHORIZED, `Unauthorized: ${next.rejected}`);
          return false;
        }
        extra.connection = next;
        context.viewer = next.viewer;
        context.viewerResolution = Promise.resolve(next.viewer);
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

/** The HTTP formatter's masking, minus the HTTP status that refusals carry for Apollo. */
function format(error: GraphQLError): GraphQLError {
  const formatted = formatGraphQLError(error.toJSON(), error);
  const { http, ...extensions } = formatted.extensions ?? {};
  return new GraphQLError(formatted.message, { path: formatted.path, extensions });
}
