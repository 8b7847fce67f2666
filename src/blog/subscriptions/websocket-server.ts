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
import { ExecutionArgs, GraphQLError } from 'graphql';
import { Context, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';

import { AccessTokenService } from '../auth/access-token.service';
import { BlogModuleOptions, BlogSubscriptionsOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { ConnectionLimits } from './connection-limits';
import { closeGoingAway, ConnectionSession } from './connection-session';
import { SubscriptionFanOut } from './event-fan-out';
import { EventOutput } from './event-output';
import { SubscriptionAdmission } from './subscription-admission';
import { unauthenticated } from '../common/errors';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../common/response-size';
import { TrustedDocuments } from '../documents/trusted-documents';
import { OperationRules } from '../limits/operation-rules';

export { WS_GOING_AWAY, WS_UNAUTHORIZED } from './connection-session';

export const DEFAULT_SUBSCRIPTIONS_OPTIONS = {
  path: '/graphql',
  maxPayloadBytes: 1_048_576,
  maxSubscriptionsPerConnection: 50,
  maxSubscriptionsPerClient: 500,
  maxSubscriptions: 10_000,
  maxConnectionsPerClient: 100,
} as const;

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

type SocketExtra = {
  socket: WebSocket;
  request: IncomingMessage;
  session?: ConnectionSession;
  /** The ids of this connection's subscriptions that hold a slot of the caps. */
  slots?: Set<string>;
};

type WsContext = Context<Record<string, unknown>, SocketExtra>;

/**
 * The graphql-ws endpoint (on the GraphQL path of the host's HTTP server). It runs
 * subscriptions only, through the same rules as HTTP ({@link SubscriptionAdmission}), with the
 * same token check ({@link ConnectionSession}) and error masking ({@link EventOutput}).
 * Messages are capped in size, connections per client address ({@link ConnectionLimits}), and
 * subscriptions per connection, per client address and in all. An event's reads and executions
 * are shared by its subscribers ({@link SubscriptionFanOut}).
 */
@Injectable()
export class BlogWebSocketServer
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  /** Connections opened and closed, for logs and metrics. */
  readonly events = new EventEmitter<BlogWebSocketEvents>();
  private readonly logger = new Logger('Subscriptions');
  private readonly settings: Required<Omit<BlogSubscriptionsOptions, 'clientAddress'>> &
    Pick<BlogSubscriptionsOptions, 'clientAddress'>;
  private readonly limits: ConnectionLimits;
  private readonly output: EventOutput;
  private readonly connectionInfo = new WeakMap<IncomingMessage, SocketConnectionInfo>();
  private admission?: SubscriptionAdmission;
  private server?: Server;
  private wss?: WebSocketServer;
  private dispose?: () => void | Promise<void>;

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
    this.limits = new ConnectionLimits(this.settings.maxConnectionsPerClient);
    this.output = new EventOutput(
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      options.hideSchemaDetails ?? false,
    );
  }

  /** Subscriptions running now, on every connection. */
  get openSubscriptions(): number {
    return this.admission?.openSubscriptions ?? 0;
  }

  /** Open WebSocket connections. */
  get openConnections(): number {
    return this.wss?.clients.size ?? 0;
  }

  onApplicationBootstrap(): void {
    if (this.options.subscriptions === false) return;
    const schema = this.moduleRef.get(GraphQLSchemaHost, { strict: false }).schema;
    const trusted = this.moduleRef.get(TrustedDocuments, { strict: false });
    this.admission = new SubscriptionAdmission(this.settings, schema, this.rules, trusted);
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.settings.maxPayloadBytes });
    const disposable = useServer<Record<string, unknown>, SocketExtra>(
      {
        schema,
        subscribe: this.fanOut.subscribe,
        onConnect: (ctx) => this.onConnect(ctx),
        onSubscribe: (ctx, id, payload) => this.onSubscribe(ctx, id, payload),
        onNext: (ctx, _id, _payload, args, result) =>
          this.output.next(ctx.extra.socket, args, result),
        onError: (_ctx, _id, _payload, errors) => this.output.errors(errors),
        onComplete: (ctx, id) => this.releaseSlot(ctx, id),
        onClose: (ctx) => {
          ctx.extra.session?.close();
          for (const id of ctx.extra.slots ?? []) this.releaseSlot(ctx, id);
        },
      },
      this.wss,
    );
    this.dispose = () => disposable.dispose();
    this.server.on('upgrade', this.onUpgrade);
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
    const release = this.limits.admit(client, socket);
    if (!release) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      this.output.track(ws, socket);
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
    const session = new ConnectionSession(ctx.extra.socket, this.tokens, this.logger);
    ctx.extra.session = session;
    if (!(await session.open(ctx.connectionParams))) return false;
    const info = this.connectionInfo.get(ctx.extra.request);
    if (info) info.userId = session.userId;
    return true;
  }

  private async onSubscribe(
    ctx: WsContext,
    id: string,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const admission = this.admission as SubscriptionAdmission;
    const admitted = admission.document(payload, Object.keys(ctx.subscriptions).length);
    if (Array.isArray(admitted)) return admitted;
    const contextValue = (ctx.extra.session as ConnectionSession).operationContext(
      this.output.scope(),
    );
    if (!(await contextValue.refreshViewer?.())) {
      return [unauthenticated('The connection has ended.')];
    }
    const full = admission.take(this.clientOf(ctx), (ctx.extra.slots ??= new Set()), id);
    if (full) return [full];
    const args: ExecutionArgs = {
      schema: admission.schema,
      document: admitted.document,
      operationName: payload.operationName,
      variableValues: payload.variables,
      contextValue,
    };
    this.fanOut.shareResults(
      args,
      `${admitted.key}\0${payload.operationName ?? ''}\0${JSON.stringify(payload.variables ?? {})}`,
    );
    return args;
  }

  private releaseSlot(ctx: WsContext, id: string): void {
    if (ctx.extra.slots) this.admission?.release(this.clientOf(ctx), ctx.extra.slots, id);
  }

  private clientOf(ctx: WsContext): string {
    return this.connectionInfo.get(ctx.extra.request)?.clientAddress ?? '';
  }
}
