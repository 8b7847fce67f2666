import { Args, ID, Int, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { Viewer } from '../common/blog-context';
import { BlogLoaders } from '../common/blog-loaders';
import { BlogResolverEnhancers } from '../common/blog-resolver.decorator';
import { Post } from '../posts/post.entity';
import { LikeChange, LikesService } from './likes.service';

/** The like mutations, and the like fields of Post. */
@Resolver(() => Post)
@BlogResolverEnhancers()
export class LikesResolver {
  constructor(private readonly likesService: LikesService) {}

  @Mutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  async likePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    return this.afterChange(await this.likesService.like(postId, viewer), loaders);
  }

  @Mutation(() => Post, { description: 'Idempotent: unliking a post not liked changes nothing.' })
  async unlikePost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    return this.afterChange(await this.likesService.unlike(postId, viewer), loaders);
  }

  @ResolveField(() => Int)
  likesCount(@Parent() post: Post, @Loaders() loaders: BlogLoaders): Promise<number> {
    return loaders.likesCountByPost.load(post.id);
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isLikedByMe(@Parent() post: Post, @Loaders() loaders: BlogLoaders): Promise<boolean> {
    return loaders.likedByViewer.load(post.id);
  }

  /** Later fields of this request must see the new state, not what the loaders cached. */
  private afterChange({ post }: LikeChange, loaders: BlogLoaders): Post {
    loaders.likesCountByPost.clear(post.id);
    loaders.likedByViewer.clear(post.id);
    return post;
  }
}
