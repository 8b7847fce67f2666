import { Args, Extensions, ID, Info, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Post } from './post.entity';
import { PostsFilter, PostsService } from './posts.service';
import { badUserInput } from '../common/errors';
import { encodeCursor, PageArgs, toConnectionPage, toPage } from '../common/pagination';
import { chargedText } from '../common/response-size';
import { selectsField } from '../common/selection';
import { isUuid } from '../common/uuid';
import { inputValidationPipe } from '../common/validation';
import { expensive, POSTS_SCAN_WORK } from '../limits/expensive-fields';
import { tagSlugs } from '../tags/tag-slug';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';
import { CreatePostArgs } from './dto/create-post.args';
import { PostConnection } from './dto/post-connection.type';
import { PostsConnectionArgs } from './dto/posts-connection.args';
import { PostsArgs } from './dto/posts.args';
import { UpdatePostInput } from './dto/update-post.input';
import { PostDetailReader } from './post-detail-reader';

/**
 * A connection as resolved: `totalCount` is counted only when asked for: by `countAll` when the
 * list is not all published posts or one author's (a user's bookmarks), else by `authorId`.
 */
export type ResolvedPostConnection = Omit<PostConnection, 'totalCount'> & {
  authorId: string | null;
  countAll?: () => Promise<number>;
};

/** The `authorId` argument of a list, in lower case; not an id is BAD_USER_INPUT, never "no filter". */
function authorIdOf(authorId?: string | null): string | null {
  if (authorId == null) return null;
  if (!isUuid(authorId)) throw badUserInput('authorId must be the id of a user.', 'authorId');
  return authorId.toLowerCase();
}

/** The filter of a list: its author (see authorIdOf), and the slugs of its `tags` argument. */
function filterOf(authorId: string | null, tags?: readonly string[] | null): PostsFilter {
  const slugs = tags ? tagSlugs(tags) : [];
  if (!authorId && slugs.length === 0) return null;
  return { ...(authorId ? { authorId } : {}), ...(slugs.length ? { tags: slugs } : {}) };
}

/** A list filtered by tags reads every published post of its tags, to keep those with them all. */
const filteredByTags = expensive(({ args }) =>
  Array.isArray(args.tags) && args.tags.length > 0 ? POSTS_SCAN_WORK : null,
);

@Resolver(() => Post)
@BlogResolverEnhancers()
export class PostsResolver {
  constructor(
    private readonly postsService: PostsService,
    private readonly detail: PostDetailReader,
  ) {}

  @Query(() => [Post], { description: 'Published posts, newest first.' })
  @Extensions(filteredByTags)
  async posts(@Args() args: PostsArgs, @Loaders() loaders: BlogLoaders): Promise<Post[]> {
    const filter = filterOf(authorIdOf(args.authorId), args.tags);
    return loaders.knownPosts(await this.postsService.list(toPage(args), filter));
  }

  @Query(() => Post, {
    nullable: true,
    description: 'A post; null when missing or a draft of someone else.',
  })
  async post(
    @Args('id', { type: () => ID }) id: string,
    @CurrentViewer() viewer: Viewer,
    @Info() info: GraphQLResolveInfo,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post | null> {
    // With its comments, the first page of them comes with the post (see PostDetailReader).
    const page = this.detail.pageOf(info);
    if (page) return this.detail.read(id, page, viewer, loaders);
    if (!selectsField(info, 'author')) return this.postsService.findVisible(id, viewer);
    // The author comes with the post, in one statement, and waits in the loader for `author`.
    const found = await this.postsService.findVisibleWithAuthor(id, viewer);
    if (!found) return null;
    loaders.knownUsers([found.author]);
    return found.post;
  }

  @Query(() => [Post], {
    description: "The viewer's drafts, newest first. Needs a signed-in user.",
  })
  myDrafts(@Args() args: PageArgs, @CurrentViewer() viewer: Viewer): Promise<Post[]> {
    return this.postsService.listDrafts(viewer, toPage(args));
  }

  @Query(() => PostConnection, {
    description: 'Relay-style pages of published posts, newest first; `after` takes an endCursor.',
  })
  @Extensions(filteredByTags)
  async postsConnection(
    @Args() args: PostsConnectionArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ResolvedPostConnection> {
    const page = toConnectionPage(args);
    const authorId = authorIdOf(args.authorId);
    const filter = filterOf(authorId, args.tags);
    const { posts, hasNextPage } = await this.postsService.listWithNext(page, filter);
    const edges = loaders.knownPosts(posts).map((node) => ({ cursor: encodeCursor(node), node }));
    const pageInfo = { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null };
    if (!filter?.tags) return { edges, pageInfo, authorId };
    return { edges, pageInfo, authorId, countAll: () => this.postsService.countMatching(filter) };
  }

  @BlogMutation(() => Post, {
    description:
      'Two forms, both needing a signed-in user: createPost(input: {title, content}) and ' +
      "createPost(title, content, authorId). Exactly one form per call; authorId must be the viewer's own id (admins may post for others).",
  })
  createPost(@Args(inputValidationPipe) args: CreatePostArgs, @CurrentViewer() viewer: Viewer) {
    return this.postsService.create(args, viewer);
  }

  @BlogMutation(() => Post, {
    description: 'Changes the title or content; the author or an admin only.',
  })
  updatePost(
    @Args('id', { type: () => ID }) id: string,
    @Args('input', inputValidationPipe) input: UpdatePostInput,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Post> {
    return this.postsService.update(id, input, viewer);
  }

  @BlogMutation(() => Post, { description: 'Publishes a draft; the author or an admin only.' })
  async publishPost(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return (await this.postsService.publish(id, viewer)).post;
  }

  @BlogMutation(() => ID, { description: 'Returns the id of the deleted post.' })
  deletePost(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.postsService.delete(id, viewer);
  }

  /** The largest value of a post: charged to the answer's budget (see RequestScope). */
  @ResolveField(() => String)
  content(post: Post, _args: unknown, context: BlogContext): string {
    // A post read without its content (see FIELDS_WITHOUT_CONTENT) must never answer this field.
    if (post.content === undefined) throw new Error(`Post ${post.id} was read without its content`);
    return chargedText(post.content, context);
  }

  /** The author at once when the request holds their row already (see `authorOf`). */
  @ResolveField(() => User)
  author(post: Post, _args: unknown, context: BlogContext): User | Promise<User> {
    return loadersOf(context).authorOf(post.authorId, 'Post', post.id);
  }
}
