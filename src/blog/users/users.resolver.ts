import { Args, ID, Info, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLResolveInfo } from 'graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext, mayViewPrivateFields } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { PageArgs, toPage } from '../common/pagination';
import { selectsOnly } from '../common/selection';
import { inputValidationPipe } from '../common/validation';
import { imageById } from '../images/images.loaders';
import { ImagesService } from '../images/images.service';
import { Post } from '../posts/post.entity';
import { FIELDS_WITHOUT_CONTENT } from '../posts/post.rows';
import { UpdateProfileInput } from './dto/update-profile.input';
import { Role } from './roles';
import { User } from './user.entity';
import { UsersService } from './users.service';
import { Viewer } from './viewer';

@Resolver(() => User)
@BlogResolverEnhancers()
export class UsersResolver {
  constructor(
    private readonly usersService: UsersService,
    private readonly images: ImagesService,
  ) {}

  @Query(() => [User], { description: 'Users in id (creation) order.' })
  async users(@Args() args: PageArgs, @Loaders() loaders: BlogLoaders): Promise<User[]> {
    return loaders.knownUsers(await this.usersService.list(toPage(args)));
  }

  @Query(() => User, { nullable: true })
  user(@Args('id', { type: () => ID }) id: string, @Loaders() loaders: BlogLoaders) {
    return loaders.userById.load(id);
  }

  @Query(() => User, { nullable: true })
  userByHandle(@Args('handle') handle: string): Promise<User | null> {
    return this.usersService.findByHandle(handle);
  }

  @Query(() => User, { nullable: true, description: 'The signed-in user, or null when anonymous.' })
  me(@CurrentViewer() viewer: Viewer): User | null {
    return viewer;
  }

  @BlogMutation(() => User, {
    description:
      "Changes the signed-in user's name, handle, avatar or address. A new address needs `currentPassword`, and is mailed a verification link; `emailVerified` is false until it is followed.",
  })
  updateProfile(
    @Args('input', inputValidationPipe) input: UpdateProfileInput,
    @CurrentViewer() viewer: Viewer,
  ): Promise<User> {
    return this.usersService.updateProfile(viewer, input);
  }

  @BlogMutation(() => User, {
    description:
      "Changes a user's role; admins only. Demoting the last admin is CONFLICT (field `role`): make another admin first. `npm run user:admin` makes the first one.",
  })
  setUserRole(
    @Args('userId', { type: () => ID }) userId: string,
    @Args('role', { type: () => Role }) role: Role,
    @CurrentViewer() viewer: Viewer,
  ): Promise<User> {
    return this.usersService.setRole(viewer, userId, role);
  }

  @ResolveField(() => String, {
    description: 'The address, shown to the user and to admins; an empty string to everyone else.',
  })
  email(user: User, _args: unknown, context: BlogContext): string {
    return mayViewPrivateFields(context, user.id) ? user.email : '';
  }

  /** The URL as given, or the uploaded image's, made now from the storage in use. */
  @ResolveField(() => String, { nullable: true })
  avatar(user: User, _args: unknown, context: BlogContext): string | null | Promise<string | null> {
    if (!user.avatarImageId) return user.avatar;
    return imageById(loadersOf(context), this.images)
      .load(user.avatarImageId)
      .then((image) => image && this.images.avatarUrlOf(image));
  }

  @ResolveField(() => [Post], { description: "This user's published posts, newest first." })
  posts(
    @Parent() user: User,
    @Args() args: PageArgs,
    @Loaders() loaders: BlogLoaders,
    @Info() info: GraphQLResolveInfo,
  ) {
    // Most lists of an author's posts show titles: their content, most of a row, stays unread.
    const pages = selectsOnly(info, FIELDS_WITHOUT_CONTENT)
      ? loaders.postSummariesByAuthor
      : loaders.postsByAuthor;
    return pages.for(toPage(args)).load(user.id);
  }

  @ResolveField(() => Int)
  postsCount(user: User, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).postsCountByAuthor.load(user.id);
  }
}
