import { Args, ID, Int, ResolveField, Resolver } from '@nestjs/graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { FollowsService } from './follows.service';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';

/** The follow mutations, and the follow fields of User. */
@Resolver(() => User)
@BlogResolverEnhancers()
export class FollowsResolver {
  constructor(private readonly followsService: FollowsService) {}

  @BlogMutation(() => User, { description: 'Follows a user; following twice changes nothing.' })
  async followUser(
    @Args('userId', { type: () => ID }) userId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<User> {
    const followee = await this.followsService.follow(userId, viewer);
    loaders.primeAfterClear(() => loaders.followedByViewer.prime(followee.id, true));
    return followee;
  }

  @BlogMutation(() => User, { description: 'Stops following a user.' })
  async unfollowUser(
    @Args('userId', { type: () => ID }) userId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<User> {
    const followee = await this.followsService.unfollow(userId, viewer);
    loaders.primeAfterClear(() => loaders.followedByViewer.prime(followee.id, false));
    return followee;
  }

  @ResolveField(() => Int)
  followersCount(user: User, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).followersCount.load(user.id);
  }

  @ResolveField(() => Int)
  followingCount(user: User, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).followingCount.load(user.id);
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isFollowedByMe(user: User, _args: unknown, context: BlogContext): Promise<boolean> {
    return loadersOf(context).followedByViewer.load(user.id);
  }
}
