import { Args, ID, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { decodeBookmarkCursor, encodeBookmarkCursor } from './bookmark-cursor';
import { bookmarkedByViewer } from './bookmarks.loaders';
import { BookmarksService } from './bookmarks.service';
import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { ConnectionArgs, toPage } from '../common/pagination';
import { PostConnection } from '../posts/dto/post-connection.type';
import { Post } from '../posts/post.entity';
import type { ResolvedPostConnection } from '../posts/posts.resolver';
import { Viewer } from '../users/viewer';

/** The bookmark mutations, the viewer's list of bookmarks, and `Post.isBookmarkedByMe`. */
@Resolver(() => Post)
@BlogResolverEnhancers()
export class BookmarksResolver {
  constructor(private readonly bookmarksService: BookmarksService) {}

  @BlogMutation(() => Post, {
    description:
      'Idempotent: bookmarking twice leaves one bookmark. Published posts only; needs a signed-in user.',
  })
  async bookmarkPost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    const { post } = await this.bookmarksService.bookmark(postId, viewer);
    loaders.primeAfterClear(() =>
      bookmarkedByViewer(loaders, this.bookmarksService).prime(post.id, true),
    );
    return post;
  }

  @BlogMutation(() => Post, {
    description: 'Idempotent: removing a bookmark that is not there answers the post unchanged.',
  })
  async unbookmarkPost(
    @Args('postId', { type: () => ID }) postId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post> {
    const { post } = await this.bookmarksService.unbookmark(postId, viewer);
    loaders.primeAfterClear(() =>
      bookmarkedByViewer(loaders, this.bookmarksService).prime(post.id, false),
    );
    return post;
  }

  @Query(() => PostConnection, {
    description:
      "The viewer's bookmarked posts, newest bookmark first; drafts and deleted posts leave the list. Needs a signed-in user.",
  })
  async myBookmarks(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ResolvedPostConnection> {
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeBookmarkCursor(args.after) : null;
    const { bookmarks, hasNextPage } = await this.bookmarksService.page(viewer, first, after);
    const posts = loaders.knownPosts(bookmarks.map(({ post }) => post));
    const bookmarked = bookmarkedByViewer(loaders, this.bookmarksService);
    for (const post of posts) bookmarked.prime(post.id, true);
    const edges = bookmarks.map(({ post, bookmarkedAt }) => ({
      cursor: encodeBookmarkCursor({ bookmarkedAt, postId: post.id }),
      node: post,
    }));
    return {
      edges,
      pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
      authorId: null,
      countAll: () => this.bookmarksService.count(viewer),
    };
  }

  @ResolveField(() => Boolean, { description: 'False for an anonymous viewer.' })
  isBookmarkedByMe(post: Post, _args: unknown, context: BlogContext): Promise<boolean> {
    return bookmarkedByViewer(loadersOf(context), this.bookmarksService).load(post.id);
  }
}
