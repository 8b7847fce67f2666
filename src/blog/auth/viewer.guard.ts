import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

import { BlogContext } from '../blog-context';
import { BlogLoadersFactory } from '../blog-loaders';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { AccessTokenService } from './access-token.service';
import { Viewer } from '../users/viewer';

/**
 * Fills the request's BlogContext once: the viewer from the `authorization` header by
 * {@link AccessTokenService} (none means anonymous; a refused token is UNAUTHENTICATED; a
 * failure to read the user is a server error), unless the context came with one (a
 * subscription's connection), and fresh loaders.
 * It lets every request through; resolvers decide what the viewer may do.
 */
@Injectable()
export class ViewerGuard implements CanActivate {
  private readonly requireVerifiedEmail: boolean;

  constructor(
    private readonly loaders: BlogLoadersFactory,
    private readonly tokens: AccessTokenService,
    @Optional() @Inject(BLOG_MODULE_OPTIONS) options?: BlogModuleOptions,
  ) {
    this.requireVerifiedEmail = options?.mail?.requireVerifiedEmail ?? false;
  }

  /**
   * The request's viewer before execution starts (the write limit needs it), shared with the
   * guard, so the user row is read once per request.
   */
  viewerBeforeExecution(blog: BlogContext): Promise<Viewer> {
    blog.viewerResolution ??=
      blog.viewer !== undefined ? Promise.resolve(blog.viewer) : this.viewerOfHeader(blog);
    return blog.viewerResolution;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const blog = GqlExecutionContext.create(context).getContext<BlogContext>();
    blog.viewer = await this.viewerBeforeExecution(blog);
    blog.loaders ??= this.loaders.create(blog.viewer);
    blog.requireVerifiedEmail = this.requireVerifiedEmail;
    return true;
  }

  private async viewerOfHeader(blog: BlogContext): Promise<Viewer> {
    const authentication = await this.tokens.authenticate(blog.req?.headers?.authorization);
    return authentication?.user ?? null;
  }
}
