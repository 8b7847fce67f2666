import { createSecretKey } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { JwtService, TokenExpiredError } from '@nestjs/jwt';
import { GraphQLError } from 'graphql';

import { tokenLifetimeOption } from './token-lifetime';
import { BlogModuleOptions } from '../blog-options.interface';
import { ErrorCode, unauthenticated } from '../common/errors';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

export interface AccessTokenPayload {
  sub: string;
  /** The user's token version when the token was issued; absent (0) in older tokens. */
  ver?: number;
  exp?: number;
}

/** Why an access token is refused: one message each, the same over HTTP and the WebSocket. */
export const TOKEN_REFUSALS = {
  malformed: 'The access token is malformed.',
  badSignature: 'The access token is not signed by this service.',
  expired: 'The access token has expired.',
  revoked: 'The access token was revoked; sign in again.',
  userGone: "The access token's account no longer exists.",
} as const;

export type TokenRefusal = keyof typeof TOKEN_REFUSALS;

/** A signed-in user, with when their token expires (epoch ms) and the token version it carries. */
export interface Authentication {
  user: User;
  expiresAt: number;
  tokenVersion: number;
}

const SIGNATURE_FAILURES = new Set([
  'invalid signature',
  'invalid algorithm',
  'jwt signature is required',
]);

/**
 * The JwtService that signs and checks the blog's tokens: HS256 only, with the secret as a
 * KeyObject (given a string, jsonwebtoken first tries to read it as a public key on every
 * verification, a sizable share of each signed-in request).
 */
export function blogJwtService(options: BlogModuleOptions): JwtService {
  const key = createSecretKey(Buffer.from(options.jwtSecret, 'utf8'));
  return new JwtService({
    privateKey: key,
    publicKey: key,
    signOptions: { algorithm: 'HS256', expiresIn: tokenLifetimeOption(options.jwtExpiresIn) },
    verifyOptions: { algorithms: ['HS256'] },
  });
}

/** The token of an `authorization` value: `Bearer <jwt>` or a bare `<jwt>`. */
export function tokenFromHeader(header: string | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  return (bearer ? bearer[1] : value).trim() || null;
}

/** True for the error {@link AccessTokenService} refuses a token with. */
export function isTokenRefusal(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && error.extensions.code === ErrorCode.Unauthenticated;
}

/** The UNAUTHENTICATED error of `reason`. */
export const tokenRefusal = (reason: TokenRefusal) => unauthenticated(TOKEN_REFUSALS[reason]);

/**
 * The one check of an access token, for HTTP requests and WebSocket connections alike: the
 * HS256 signature, the expiry, then the user, who must still exist and be at the token's
 * version (logging out everywhere and changing the password raise it). A refusal is
 * UNAUTHENTICATED with the message of its {@link TokenRefusal}. A failure to read the user is
 * thrown as it is: the check cannot decide, so the caller refuses with a server error, as
 * clients sign their users out on UNAUTHENTICATED.
 */
@Injectable()
export class AccessTokenService {
  constructor(
    private readonly jwt: JwtService,
    private readonly users: UsersService,
  ) {}

  /** The user of an `authorization` value; null when there is none (anonymous). */
  async authenticate(authorization: unknown): Promise<Authentication | null> {
    if (authorization === undefined || authorization === null) return null;
    if (typeof authorization !== 'string') throw tokenRefusal('malformed');
    const token = tokenFromHeader(authorization);
    if (!token) return null;
    const payload = await this.verify(token);
    return this.admit(payload, await this.users.findById(payload.sub));
  }

  /**
   * `authentication` checked again, with its user as the database has them now (`findUser`
   * reads the row, one batch for every subscriber of an event): for a connection that outlives
   * the request that opened it.
   */
  async recheck(
    authentication: Authentication,
    findUser: (id: string) => Promise<User | null> = (id) => this.users.findById(id),
  ): Promise<Authentication> {
    if (Date.now() >= authentication.expiresAt) throw tokenRefusal('expired');
    const { user, tokenVersion, expiresAt } = authentication;
    return this.admit(
      { sub: user.id, ver: tokenVersion, exp: expiresAt / 1000 },
      await findUser(user.id),
    );
  }

  private async verify(token: string): Promise<Required<AccessTokenPayload>> {
    let payload: AccessTokenPayload;
    try {
      payload = await this.jwt.verifyAsync<AccessTokenPayload>(token);
    } catch (error) {
      if (error instanceof TokenExpiredError) throw tokenRefusal('expired');
      if (error instanceof Error && SIGNATURE_FAILURES.has(error.message)) {
        throw tokenRefusal('badSignature');
      }
      throw tokenRefusal('malformed');
    }
    const { sub, exp, ver = 0 } = payload;
    if (typeof sub !== 'string' || typeof exp !== 'number' || !Number.isSafeInteger(ver)) {
      throw tokenRefusal('malformed');
    }
    return { sub, exp, ver };
  }

  private admit(payload: Required<AccessTokenPayload>, user: User | null): Authentication {
    if (!user) throw tokenRefusal('userGone');
    if (payload.ver !== user.tokenVersion) throw tokenRefusal('revoked');
    return { user, expiresAt: payload.exp * 1000, tokenVersion: user.tokenVersion };
  }
}
