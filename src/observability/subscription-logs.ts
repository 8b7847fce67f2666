import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

import { BlogWebSocketServer, SocketConnectionInfo } from '../blog';
import { HttpObservability } from './http-observability';

/** A log line for every subscription (graphql-ws) connection opened and closed. */
@Injectable()
export class SubscriptionLogs implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: BlogWebSocketServer;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly http: HttpObservability,
  ) {}

  onApplicationBootstrap(): void {
    try {
      this.server = this.moduleRef.get(BlogWebSocketServer, { strict: false });
    } catch {
      return; // a host without the blog's WebSocket server
    }
    this.server.events.on('connectionOpened', this.opened);
    this.server.events.on('connectionClosed', this.closed);
  }

  onApplicationShutdown(): void {
    this.server?.events.off('connectionOpened', this.opened);
    this.server?.events.off('connectionClosed', this.closed);
  }

  private readonly opened = (info: SocketConnectionInfo): void => {
    this.http.logger.info(
      { clientAddress: info.clientAddress, userId: info.userId },
      'subscription connection opened',
    );
  };

  private readonly closed = (info: SocketConnectionInfo): void => {
    this.http.logger.info(
      {
        clientAddress: info.clientAddress,
        userId: info.userId,
        code: info.code,
        durationMs: info.durationMs,
      },
      'subscription connection closed',
    );
  };
}
