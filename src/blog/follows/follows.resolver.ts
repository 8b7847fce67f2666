import { Args, ID, Int, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';
import { FollowsService } from './follows.service';

/** The follow mutations, and the follow fields of User. */
@Resolver(() => User)
@BlogResolverEnhancers()
export class FollowsResolver {
  constructor(private readonly followsService: FollowsService) {}

  @Mutation(() => User, { description: 'Follows a user; following twice changes nothing.' })
  followUser(
    @Args('userId', { type: () => ID }) userId: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<User> {
    return this.followsService.follow(userId, viewer);
  }

  @Mutation(() => User, { description: 'Stops following a user.' })
  unfollowUser(
    @Args('userId', { type: () => ID }) userId: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<User> {
    return this.followsService.unfollow(userId, viewer);
  }

  @ResolveField(() => Int)
  followersCount(@Parent() user: User, @Loaders() loaders: BlogLoaders): Promise<number> {
    return loaders.followersCount.load(user.id);
  }

  @ResolveField(() => Int)
  followingCount(@Parent() user: User, @Loaders() loaders: BlogLoaders): Promise<number> {
    return loaders.followingCount.load(user.id);
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isFollowedByMe(@Parent() user: User, @Loaders() loaders: BlogLoaders): Promise<boolean> {
    return loaders.followedByViewer.load(user.id);
  }
}
