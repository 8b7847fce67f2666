import { Logger } from '@nestjs/common';
import { CloseCode } from 'graphql-ws';
import { WebSocket } from 'ws';

import {
  AccessTokenService,
  Authentication,
  isTokenRefusal,
  tokenRefusal,
} from '../auth/access-token.service';
import { BlogContext } from '../blog-context';
import { RequestScope } from '../common/request-scope';
import { User } from '../users/user.entity';

/** Close code when the token is refused: malformed, forged, expired, revoked, or its user gone. */
export const WS_UNAUTHORIZED = 4401;

/** Close code when the server shuts down. */
export const WS_GOING_AWAY = 1001;

/** Sockets that do not answer the close handshake in time are cut. */
const CLOSE_GRACE_MS = 3_000;

/** Timers cannot wait longer than this (about 24.8 days); a later expiry is checked per event. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a WebSocket client sends in `connection_init`. */
export type ConnectionParams = Readonly<Record<string, unknown>> | undefined;

/**
 * The viewer of one WebSocket connection, from `connection_init` to close, checked by
 * {@link AccessTokenService} as HTTP checks a request's: the token at `connection_init`, then
 * the user again before every operation and event, and the expiry by a timer. A refused token
 * closes the socket with 4401 and the message HTTP would answer; a check that cannot decide
 * (the database failing) is logged and refuses, with 4500 at `connection_init`.
 */
export class ConnectionSession {
  /** Undefined until `connection_init` is accepted; null for an anonymous connection. */
  private authentication?: Authentication | null;
  private expiryTimer?: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly tokens: AccessTokenService,
    private readonly logger: Logger,
  ) {}

  get userId(): string | null {
    return this.authentication?.user.id ?? null;
  }

  /** Checks the token of `connection_init`: true when the connection may go on. */
  async open(params: ConnectionParams): Promise<boolean> {
    try {
      this.authentication = await this.tokens.authenticate(
        params?.authorization ?? params?.Authorization,
      );
    } catch (error) {
      if (this.closeRefused(error)) return false;
      this.logger.error(
        'Could not authenticate a WebSocket connection',
        error instanceof Error ? error.stack : error,
      );
      this.socket.close(CloseCode.InternalServerError, 'Internal server error');
      return false;
    }
    this.closeAtExpiry();
    return true;
  }

  /** The context of one operation: the connection's viewer, re-read on demand. */
  operationContext(scope: RequestScope): BlogContext {
    const context: BlogContext = {
      viewer: this.authentication?.user ?? null,
      scope,
      refreshViewer: async (findUser) => {
        const viewer = await this.recheck(findUser);
        if (viewer === false) return false;
        context.viewer = viewer;
        context.viewerResolution = Promise.resolve(viewer);
        context.loaders = undefined;
        return true;
      },
    };
    return context;
  }

  close(): void {
    clearTimeout(this.expiryTimer);
  }

  /** The viewer as the database has them now; false when the connection has ended. */
  private async recheck(
    findUser?: (id: string) => Promise<User | null>,
  ): Promise<User | null | false> {
    const current = this.authentication;
    if (current === undefined || this.socket.readyState !== WebSocket.OPEN) return false;
    if (current === null) return null;
    try {
      this.authentication = await this.tokens.recheck(current, findUser);
      return this.authentication.user;
    } catch (error) {
      if (!this.closeRefused(error)) {
        this.logger.error(
          'Could not re-read the viewer of a WebSocket connection',
          error instanceof Error ? error.stack : error,
        );
      }
      return false;
    }
  }

  private closeRefused(error: unknown): boolean {
    if (!isTokenRefusal(error)) return false;
    this.socket.close(WS_UNAUTHORIZED, `Unauthorized: ${error.message}`);
    return true;
  }

  private closeAtExpiry(): void {
    if (!this.authentication) return;
    const wait = this.authentication.expiresAt - Date.now();
    if (wait > MAX_TIMER_MS) return;
    this.expiryTimer = setTimeout(
      () => this.closeRefused(tokenRefusal('expired')),
      Math.max(wait, 0),
    );
    this.expiryTimer.unref();
  }
}

/** Closes `socket` with 1001, resolving once it has closed (cut if it does not answer). */
export function closeGoingAway(socket: WebSocket): Promise<void> {
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
