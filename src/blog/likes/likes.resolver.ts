import { Args, ID, Int, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Post } from '../posts/post.entity';
import { Viewer } from '../users/viewer';
import { LikesService } from './likes.service';

/** The like mutations, and the like fields of Post. */
@Resolver(() => Post)
@BlogResolverEnhancers()
export class LikesResolver {
  constructor(private readonly likesService: LikesService) {}

  @Mutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  async likePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Post> {
    return (await this.likesService.like(postId, viewer)).post;
  }

  @Mutation(() => Post, { description: 'Idempotent: unliking a post not liked changes nothing.' })
  async unlikePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Post> {
    return (await this.likesService.unlike(postId, viewer)).post;
  }

  @ResolveField(() => Int)
  likesCount(@Parent() post: Post, @Loaders() loaders: BlogLoaders): Promise<number> {
    return loaders.likesCountByPost.load(post.id);
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isLikedByMe(@Parent() post: Post, @Loaders() loaders: BlogLoaders): Promise<boolean> {
    return loaders.likedByViewer.load(post.id);
  }
}
