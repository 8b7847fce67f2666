import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Viewer } from '../common/blog-context';
import { AccessTokenPayload, JwtStrategy, tokenFromHeader } from './jwt.strategy';

/** What a WebSocket client sends in `connection_init`. */
export interface ConnectionParams {
  authorization?: unknown;
  Authorization?: unknown;
}

export type ConnectionViewer = { viewer: Viewer } | { rejected: string };

/**
 * Authenticates a subscription connection from `connectionParams.authorization`, with the same
 * rules as the HTTP header: none is anonymous, a bad one is refused.
 */
@Injectable()
export class ConnectionAuthService {
  constructor(
    private readonly jwt: JwtService,
    private readonly strategy: JwtStrategy,
  ) {}

  async authenticate(params: ConnectionParams | undefined): Promise<ConnectionViewer> {
    const raw = params?.authorization ?? params?.Authorization;
    if (raw !== undefined && typeof raw !== 'string')
      return { rejected: 'authorization must be a string' };
    const token = tokenFromHeader(raw);
    if (!token) return { viewer: null };
    try {
      const payload = await this.jwt.verifyAsync<AccessTokenPayload>(token, {
        algorithms: ['HS256'],
      });
      const user = await this.strategy.validate(payload);
      return user ? { viewer: user } : { rejected: 'the access token is invalid or has expired' };
    } catch {
      return { rejected: 'the access token is invalid or has expired' };
    }
  }
}
