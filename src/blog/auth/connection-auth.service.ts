import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Viewer } from '../common/blog-context';
import { UsersService } from '../users/users.service';
import { AccessTokenPayload, tokenFromHeader } from './jwt.strategy';

/** What a WebSocket client sends in `connection_init`. */
export interface ConnectionParams {
  authorization?: unknown;
  Authorization?: unknown;
}

/** A connection's signed-in user and when their token expires (epoch ms). */
export interface ConnectionViewer {
  viewer: Viewer;
  expiresAt: number | null;
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
    if (typeof payload.exp !== 'number' || typeof payload.sub !== 'string') {
      return { rejected: INVALID_TOKEN };
    }
    const user = await this.users.findById(payload.sub);
    return user ? { viewer: user, expiresAt: payload.exp * 1000 } : { rejected: INVALID_TOKEN };
  }

  /**
   * The connection's user as the database has them now, so that a revoked role or a deleted
   * account takes effect on the next operation or event; a reason when the connection must end.
   */
  async refresh(connection: ConnectionViewer): Promise<ConnectionViewer | { rejected: string }> {
    if (!connection.viewer) return connection;
    if (connection.expiresAt !== null && Date.now() >= connection.expiresAt) {
      return { rejected: 'the access token has expired' };
    }
    const user = await this.users.findById(connection.viewer.id);
    return user ? { viewer: user, expiresAt: connection.expiresAt } : { rejected: INVALID_TOKEN };
  }
}
