import { ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { JwtService } from '@nestjs/jwt';
import { AuthGuard } from '@nestjs/passport';

import { BlogContext, BlogRequest } from '../blog-context';
import { BlogLoadersFactory } from '../blog-loaders';
import { AccessTokenPayload, JWT_STRATEGY, JwtStrategy, tokenFromHeader } from './jwt.strategy';
import { unauthenticated } from '../common/errors';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

const INVALID_TOKEN = 'The access token is invalid or has expired.';

/**
 * Fills the request's BlogContext once: the viewer from the `authorization` header (none means
 * anonymous; a bad, expired or orphaned token is UNAUTHENTICATED; a failure to read the user is
 * a server error), unless the context came with one (a subscription's connection), and fresh
 * loaders.
 * It lets every request through; resolvers decide what the viewer may do.
 */
@Injectable()
export class ViewerGuard extends AuthGuard(JWT_STRATEGY) {
  constructor(
    private readonly loaders: BlogLoadersFactory,
    private readonly jwt: JwtService,
    private readonly strategy: JwtStrategy,
  ) {
    super();
  }

  /**
   * The request's viewer before execution starts (the write limit needs it), by the same rules
   * as the guard and shared with it, so the user row is still read once per request.
   */
  viewerBeforeExecution(blog: BlogContext): Promise<Viewer> {
    blog.viewerResolution ??=
      blog.viewer !== undefined ? Promise.resolve(blog.viewer) : this.viewerOfHeader(blog.req);
    return blog.viewerResolution;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const blog = GqlExecutionContext.create(context).getContext<BlogContext>();
    blog.viewerResolution ??=
      blog.viewer !== undefined
        ? Promise.resolve(blog.viewer)
        : this.resolveViewer(context, blog.req);
    blog.viewer = await blog.viewerResolution;
    blog.loaders ??= this.loaders.create(blog.viewer);
    return true;
  }

  override getRequest(context: ExecutionContext): BlogRequest | undefined {
    return GqlExecutionContext.create(context).getContext<BlogContext>().req;
  }

  /**
   * Passport reports a bad token as no user, and what `JwtStrategy.validate` threw (the
   * database failing) as an error: that one is rethrown for the error formatter to log and to
   * mask as INTERNAL_SERVER_ERROR, as clients sign their users out on UNAUTHENTICATED.
   */
  override handleRequest<TUser = User>(error: unknown, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw unauthenticated(INVALID_TOKEN);
    return user;
  }

  private async resolveViewer(context: ExecutionContext, req?: BlogRequest): Promise<Viewer> {
    if (!tokenFromHeader(req?.headers?.authorization)) return null;
    await super.canActivate(context);
    return (req?.user as User | undefined) ?? null;
  }

  private async viewerOfHeader(req?: BlogRequest): Promise<Viewer> {
    const token = tokenFromHeader(req?.headers?.authorization);
    if (!token) return null;
    let payload: AccessTokenPayload;
    try {
      payload = await this.jwt.verifyAsync<AccessTokenPayload>(token, { algorithms: ['HS256'] });
    } catch {
      throw unauthenticated(INVALID_TOKEN);
    }
    const user = await this.strategy.validate(payload);
    if (!user) throw unauthenticated(INVALID_TOKEN);
    return user;
  }
}
