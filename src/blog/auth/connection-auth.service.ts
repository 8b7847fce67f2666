import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

import { AccessTokenPayload, tokenFromHeader, tokenIsCurrent } from './jwt.strategy';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** What a WebSocket client sends in `connection_init`. */
export interface ConnectionParams {
  authorization?: unknown;
  Authorization?: unknown;
}

/**
 * A connection's signed-in user, when their token expires (epoch ms) and the token version it
 * carries (a raised version revokes it).
 */
export interface ConnectionViewer {
  viewer: Viewer;
  expiresAt: number | null;
  tokenVersion?: number;
}

export type ConnectionAuthentication = ConnectionViewer | { rejected: string };

export const INVALID_TOKEN = 'the access token is invalid or has expired';

/**
 * Authenticates a subscription connection from `connectionParams.authorization`, with the same
 * rules as the HTTP header: none is anonymous, a bad one is refused. A database failure is not
 * a bad token: it is thrown, for the caller to report as a server error.
 */
@Injectable()
export class ConnectionAuthService {
  constructor(
    private readonly jwt: JwtService,
    private readonly users: UsersService,
  ) {}

  async authenticate(params: ConnectionParams | undefined): Promise<ConnectionAuthentication> {
    const raw = params?.authorization ?? params?.Authorization;
    if (raw !== undefined && typeof raw !== 'string')
      return { rejected: 'authorization must be a string' };
    const token = tokenFromHeader(raw);
    if (!token) return { viewer: null, expiresAt: null };
    let payload: AccessTokenPayload;
    try {
      payload = await this.jwt.verifyAsync<AccessTokenPayload>(token, { algorithms: ['HS256'] });
    } catch {
      return { rejected: INVALID_TOKEN };
    }
    if (
      typeof payload.exp !== 'number' ||
      typeof payload.sub !== 'string' ||
      (payload.ver !== undefined && !Number.isSafeInteger(payload.ver))
    ) {
      return { rejected: INVALID_TOKEN };
    }
    const user = await this.users.findById(payload.sub);
    if (!user || !tokenIsCurrent(payload, user)) return { rejected: INVALID_TOKEN };
    return { viewer: user, expiresAt: payload.exp * 1000, tokenVersion: user.tokenVersion };
  }

  /**
   * The connection's user as the database has them now, so that a revoked role, a deleted
   * account or a revoked token (log out everywhere, a changed password) takes effect on the next
   * operation or event; a reason when the connection must end. `findUser` reads the row (one
   * batch for every subscriber of an event).
   */
  async refresh(
    connection: ConnectionViewer,
    findUser: (id: string) => Promise<User | null> = (id) => this.users.findById(id),
  ): Promise<ConnectionViewer | { rejected: string }> {
    if (!connection.viewer) return connection;
    if (connection.expiresAt !== null && Date.now() >= connection.expiresAt) {
      return { rejected: 'the access token has expired' };
    }
    const user = await findUser(connection.viewer.id);
    if (!user || user.tokenVersion !== connection.tokenVersion) return { rejected: INVALID_TOKEN };
    return { viewer: user, expiresAt: connection.expiresAt, tokenVersion: user.tokenVersion };
  }
}
