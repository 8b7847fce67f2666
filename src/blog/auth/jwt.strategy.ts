import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-jwt';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

export const JWT_STRATEGY = 'blog-jwt';

export interface AccessTokenPayload {
  sub: string;
  exp?: number;
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
 * who no longer exists is refused like a forged one.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
    private readonly users: UsersService,
  ) {
    super({
      jwtFromRequest: (req: Request) => tokenFromHeader(req.headers?.authorization),
      secretOrKey: options.jwtSecret,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(payload: AccessTokenPayload): Promise<User | false> {
    if (typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return false;
    return (await this.users.findById(payload.sub)) ?? false;
  }
}
