import { Args, ID, Int, ResolveField, Resolver } from '@nestjs/graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { LikesService } from './likes.service';
import { Post } from '../posts/post.entity';
import { Viewer } from '../users/viewer';

/** The like mutations, and the like fields of Post. */
@Resolver(() => Post)
@BlogResolverEnhancers()
export class LikesResolver {
  constructor(private readonly likesService: LikesService) {}

  @BlogMutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  async likePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    const { post } = await this.likesService.like(postId, viewer);
    loaders.primeAfterClear(() => loaders.likedByViewer.prime(post.id, true));
    return post;
  }

  @BlogMutation(() => Post, {
    description: 'Idempotent: unliking a post not liked changes nothing.',
  })
  async unlikePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    const { post } = await this.likesService.unlike(postId, viewer);
    loaders.primeAfterClear(() => loaders.likedByViewer.prime(post.id, false));
    return post;
  }

  @ResolveField(() => Int)
  likesCount(post: Post, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).likesCountByPost.load(post.id);
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isLikedByMe(post: Post, _args: unknown, context: BlogContext): Promise<boolean> {
    return loadersOf(context).likedByViewer.load(post.id);
  }
}
