import { createSecretKey } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { JwtService, TokenExpiredError } from '@nestjs/jwt';
import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';

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

/** How many checked tokens {@link AccessTokenService} keeps: about 300 bytes each. */
const VERIFIED_TOKENS = 1000;

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
  /**
   * The claims of tokens whose signature was checked, by token: a client sends the same token
   * with each request, and checking it again (HMAC, two base64 and JSON parses) cost more than
   * the rest of the check. Only what never changes for a token is kept: its expiry is compared
   * with the clock at each use, and the user is read each time. Only tokens that passed are kept,
   * so a client cannot fill it with its own.
   */
  private readonly verified = new LRUCache<string, Required<AccessTokenPayload>>({
    max: VERIFIED_TOKENS,
  });

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
    const verified = this.verified.get(token);
    if (verified) {
      // jsonwebtoken's own test, to the second: expired from the second `exp` names.
      if (Math.floor(Date.now() / 1000) < verified.exp) return verified;
      this.verified.delete(token);
      throw tokenRefusal('expired');
    }
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
    const claims = { sub, exp, ver };
    this.verified.set(token, claims);
    return claims;
  }

  private admit(payload: Required<AccessTokenPayload>, user: User | null): Authentication {
    if (!user) throw tokenRefusal('userGone');
    if (payload.ver !== user.tokenVersion) throw tokenRefusal('revoked');
    return { user, expiresAt: payload.exp * 1000, tokenVersion: user.tokenVersion };
  }
}
