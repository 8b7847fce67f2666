import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { Viewer } from '../common/blog-context';
import { BlogLoaders } from '../common/blog-loaders';
import { toPage } from '../common/pagination';
import { inputValidationPipe } from '../common/validation';
import { User } from '../users/user.entity';
import { CreatePostArgs } from './dto/create-post.args';
import { PostsArgs } from './dto/posts.args';
import { Post } from './post.entity';
import { PostsService } from './posts.service';
import { BlogResolverEnhancers } from '../common/blog-resolver.decorator';

@Resolver(() => Post)
@BlogResolverEnhancers()
export class PostsResolver {
  constructor(private readonly postsService: PostsService) {}

  @Query(() => [Post], { description: 'Published posts, newest first.' })
  posts(@Args() args: PostsArgs): Promise<Post[]> {
    return this.postsService.list(toPage(args), args.authorId);
  }

  @Query(() => Post, {
    nullable: true,
    description: 'A post; null when missing or a draft of someone else.',
  })
  post(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.postsService.findVisible(id, viewer);
  }

  @Mutation(() => Post, {
    description:
      'Two forms, both needing a signed-in user: createPost(input: {title, content}) and ' +
      "createPost(title, content, authorId). Exactly one form per call; authorId must be the viewer's own id (admins may post for others).",
  })
  createPost(@Args(inputValidationPipe) args: CreatePostArgs, @CurrentViewer() viewer: Viewer) {
    return this.postsService.create(args, viewer);
  }

  @ResolveField(() => User)
  async author(@Parent() post: Post, @Loaders() loaders: BlogLoaders): Promise<User> {
    const author = await loaders.userById.load(post.authorId);
    if (!author) throw new Error(`Post ${post.id} has no author ${post.authorId}`);
    return author;
  }
}
