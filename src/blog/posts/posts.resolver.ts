import { Args, Extensions, ID, Info, Int, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { PostDetailReader } from './post-detail-reader';
import { mayViewReview, PostReviewState, REJECTION_REASON_LENGTH } from './post-review';
import { PostUrls } from './post-urls';
import { Post } from './post.entity';
import { PostsFilter, PostsService } from './posts.service';
import { decodeReviewCursor, encodeReviewCursor } from './review-cursor';
import { decodeScheduledCursor, encodeScheduledCursor } from './scheduled-cursor';
import { readingTimeMinutes } from '../common/content';
import { badUserInput } from '../common/errors';
import {
  ConnectionArgs,
  encodeCursor,
  PageArgs,
  toConnectionPage,
  toPage,
} from '../common/pagination';
import { chargedText, textFieldCost } from '../common/response-size';
import { selectsField } from '../common/selection';
import { isUuid } from '../common/uuid';
import { inputValidationPipe } from '../common/validation';
import { imageById } from '../images/images.loaders';
import { ImagesService } from '../images/images.service';
import { expensive, POSTS_SCAN_WORK } from '../limits/expensive-fields';
import { tagSlugs } from '../tags/tag-slug';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';
import { CreatePostArgs } from './dto/create-post.args';
import { CONTENT_LENGTH } from './dto/create-post.input';
import { CoverImage, PostSeo, PostStatus, TocEntry } from './dto/post-card.types';
import { PostConnection } from './dto/post-connection.type';
import { PostsConnectionArgs } from './dto/posts-connection.args';
import { PostsArgs } from './dto/posts.args';
import { UpdatePostInput } from './dto/update-post.input';

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
    private readonly urls: PostUrls,
    private readonly images: ImagesService,
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

  @Query(() => Post, {
    nullable: true,
    description:
      'The post that has, or had, this slug: a front-end redirects when `slug` differs. Null when missing or a draft of someone else.',
  })
  postBySlug(
    @Args('slug') slug: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post | null> {
    return this.postsService
      .findVisibleBySlug(slug, viewer)
      .then((post) => (post ? loaders.knownPosts([post])[0] : null));
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

  @BlogMutation(() => Post, {
    description:
      'Schedules a draft to publish itself at `at`, in the future; the author or an admin only. Until then it stays a draft, private to its author.',
  })
  schedulePost(
    @Args('id', { type: () => ID }) id: string,
    @Args('at', { type: () => Date }) at: Date,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Post> {
    return this.postsService.schedule(id, at, viewer);
  }

  @BlogMutation(() => Post, {
    description: 'Takes a scheduled post back to a plain draft (clears `scheduledAt`).',
  })
  unschedulePost(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.postsService.unschedule(id, viewer);
  }

  @BlogMutation(() => Post, {
    description:
      'Takes a published post back to a draft: it leaves lists, search, tags, feeds and bookmarks at once, and its unread notifications go with it.',
  })
  unpublishPost(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.postsService.unpublish(id, viewer);
  }

  @Query(() => PostConnection, {
    description:
      "The viewer's scheduled posts, soonest first; `after` takes an endCursor. Needs a signed-in user.",
  })
  async myScheduledPosts(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<ResolvedPostConnection> {
    const page = toPage({ first: args.first });
    const after = args.after ? decodeScheduledCursor(args.after) : null;
    const { posts, hasNextPage } = await this.postsService.listScheduled(viewer, {
      first: page.first,
      after,
    });
    const edges = posts.map((node) => ({ cursor: encodeScheduledCursor(node), node }));
    const pageInfo = { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null };
    return {
      edges,
      pageInfo,
      authorId: null,
      countAll: () => this.postsService.countScheduled(viewer!),
    };
  }

  @BlogMutation(() => Post, {
    description:
      "Puts the viewer's own draft (neither published nor scheduled) in the review queue, for an editor to publish or reject; any role may. A post already waiting is answered as it is.",
  })
  submitPostForReview(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.postsService.submitForReview(id, viewer);
  }

  @BlogMutation(() => Post, {
    description: `Sends a post awaiting review back to its author as a draft, with \`reason\` (${REJECTION_REASON_LENGTH.min}-${REJECTION_REASON_LENGTH.max} characters), which the author sees in \`rejectionReason\`. Editors and admins only.`,
  })
  rejectPost(
    @Args('id', { type: () => ID }) id: string,
    @Args('reason') reason: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Post> {
    return this.postsService.reject(id, reason, viewer);
  }

  @Query(() => PostConnection, {
    description:
      'The drafts submitted for review, oldest submission first; `after` takes an endCursor. Editors and admins only.',
  })
  async postsAwaitingReview(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<ResolvedPostConnection> {
    const page = toPage({ first: args.first });
    const after = args.after ? decodeReviewCursor(args.after) : null;
    const { posts, hasNextPage } = await this.postsService.listAwaitingReview(viewer, {
      first: page.first,
      after,
    });
    const edges = posts.map((node) => ({ cursor: encodeReviewCursor(node), node }));
    const pageInfo = { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null };
    return {
      edges,
      pageInfo,
      authorId: null,
      countAll: () => this.postsService.countAwaitingReview(),
    };
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

  @ResolveField(() => [String], {
    description:
      'The slugs the post had before, newest first; `postBySlug` still finds it by them.',
  })
  previousSlugs(post: Post, _args: unknown, context: BlogContext): Promise<string[]> {
    return loadersOf(context).previousSlugs.load(post);
  }

  @ResolveField(() => String, {
    nullable: true,
    description:
      "The post's public address on the front-end (SITE_URL and SITE_POST_PATH); null without SITE_URL.",
  })
  url(post: Post): string | null {
    return this.urls.of(post);
  }

  @ResolveField(() => PostStatus)
  status(post: Post): PostStatus {
    if (post.publishedAt !== null) return PostStatus.PUBLISHED;
    return post.scheduledAt !== null ? PostStatus.SCHEDULED : PostStatus.DRAFT;
  }

  /** Rendered on write (see renderPostContent); charged to the answer's budget as `content` is. */
  @ResolveField(() => String, {
    complexity: textFieldCost(2 * CONTENT_LENGTH.max),
    description:
      'The content rendered to HTML on write and sanitised with an allow-list: safe to insert into a page as it is.',
  })
  async contentHtml(post: Post, _args: unknown, context: BlogContext): Promise<string> {
    return chargedText((await loadersOf(context).postBodies.load(post.id)).html, context);
  }

  @ResolveField(() => String, {
    complexity: textFieldCost(CONTENT_LENGTH.max),
    description: 'The content as plain text, without Markdown or HTML.',
  })
  async contentText(post: Post, _args: unknown, context: BlogContext): Promise<string> {
    return chargedText((await loadersOf(context).postBodies.load(post.id)).text, context);
  }

  @ResolveField(() => [TocEntry], {
    description: "The headings of the content, in order: a table of contents for the post's page.",
  })
  async toc(post: Post, _args: unknown, context: BlogContext): Promise<TocEntry[]> {
    return (await loadersOf(context).postBodies.load(post.id)).toc;
  }

  @ResolveField(() => Int, {
    description: 'Minutes to read the content at 230 words a minute; at least 1.',
  })
  readingTimeMinutes(post: Post): number {
    return readingTimeMinutes(post.wordCount);
  }

  /**
   * A cover given by URL as stored; an uploaded image's URL is made now, from the storage in
   * use, so that it follows a change of the images' public base URL.
   */
  @ResolveField(() => CoverImage, { nullable: true })
  coverImage(
    post: Post,
    _args: unknown,
    context: BlogContext,
  ): CoverImage | null | Promise<CoverImage | null> {
    if (post.coverImageId) return this.uploadedCover(post, post.coverImageId, context);
    if (!post.coverUrl) return null;
    return { url: post.coverUrl, alt: post.coverAlt, caption: post.coverCaption, image: null };
  }

  /** The cover of an uploaded image; null if the image is gone (deleted meanwhile). */
  private async uploadedCover(
    post: Post,
    imageId: string,
    context: BlogContext,
  ): Promise<CoverImage | null> {
    const image = await imageById(loadersOf(context), this.images).load(imageId);
    if (!image) return null;
    const url = this.images.urlOf(image);
    return { url, alt: post.coverAlt, caption: post.coverCaption, image };
  }

  @ResolveField(() => PostSeo)
  seo(post: Post, _args: unknown, context: BlogContext): PostSeo | Promise<PostSeo> {
    const seo = {
      title: post.seoTitle ?? post.title,
      description: post.seoDescription ?? post.excerpt,
      imageUrl: post.coverUrl,
      canonicalUrl: post.seoCanonicalUrl ?? this.urls.of(post),
    };
    if (!post.coverImageId) return seo;
    return this.uploadedCover(post, post.coverImageId, context).then((cover) => ({
      ...seo,
      imageUrl: cover?.url ?? null,
    }));
  }

  @ResolveField(() => PostReviewState, {
    nullable: true,
    description:
      'Where the post stands in editorial review: to its author, editors and admins; null to everyone else.',
  })
  reviewState(post: Post, _args: unknown, context: BlogContext): PostReviewState | null {
    if (!mayViewReview(post, context.viewer ?? null)) return null;
    return post.reviewState ?? PostReviewState.NONE;
  }

  @ResolveField(() => String, {
    nullable: true,
    complexity: textFieldCost(REJECTION_REASON_LENGTH.max),
    description:
      'Why an editor sent the post back (`reviewState` REJECTED): to its author, editors and admins; null otherwise.',
  })
  rejectionReason(post: Post, _args: unknown, context: BlogContext): string | null {
    return mayViewReview(post, context.viewer ?? null) ? post.rejectionReason : null;
  }

  /** The author at once when the request holds their row already (see `authorOf`). */
  @ResolveField(() => User)
  author(post: Post, _args: unknown, context: BlogContext): User | Promise<User> {
    return loadersOf(context).authorOf(post.authorId, 'Post', post.id);
  }
}
