import { createSecretKey, KeyObject } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';

import type { BlogRequest } from '../blog-context';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

export const JWT_STRATEGY = 'blog-jwt';

/** The injection token of the HS256 key, made once from the configured secret. */
export const BLOG_JWT_KEY = Symbol('BLOG_JWT_KEY');

/**
 * The secret as a KeyObject: given a string, jsonwebtoken first tries (and fails) to read it
 * as a public key on every verification, which cost a sizable share of each signed-in request.
 */
export function jwtKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

export interface AccessTokenPayload {
  sub: string;
  /** The user's token version when the token was issued; absent (0) in older tokens. */
  ver?: number;
  exp?: number;
}

/**
 * True when the token was issued at the user's current token version: logging out everywhere
 * and changing the password raise the version, which revokes every earlier token.
 */
export function tokenIsCurrent(payload: AccessTokenPayload, user: User): boolean {
  return (payload.ver ?? 0) === user.tokenVersion;
}

/** The token of an `authorization` header: `Bearer <jwt>` or a bare `<jwt>`. */
export function tokenFromHeader(header: string | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  return (bearer ? bearer[1] : value).trim() || null;
}

/**
 * Checks the HS256 signature and expiry of a token, then loads its user: a token of a user
 * who no longer exists, or one issued before the user's last log-out everywhere or password
 * change, is refused like a forged one. A failure to read the user is thrown, not
 * turned into a refusal: a database blip is not a bad token.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    @Inject(BLOG_JWT_KEY) key: KeyObject,
    private readonly users: UsersService,
  ) {
    super({
      jwtFromRequest: (req: BlogRequest) => tokenFromHeader(req.headers?.authorization),
      // passport-jwt types a string; it hands the key to jsonwebtoken, which takes a KeyObject.
      secretOrKey: key as unknown as string,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(payload: AccessTokenPayload): Promise<User | false> {
    if (typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return false;
    if (payload.ver !== undefined && !Number.isSafeInteger(payload.ver)) return false;
    const user = await this.users.findById(payload.sub);
    return user && tokenIsCurrent(payload, user) ? user : false;
  }
}
