import { Args, ID, Info, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLResolveInfo } from 'graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { encodeCommentCursor, toCommentPage } from './comment-cursor';
import { CommentOrder } from './comment-status';
import { seesComment, shownTo } from './comment-visibility';
import { Comment } from './comment.entity';
import { ThreadComment } from './comment.rows';
import { CommentsService, ThreadPage } from './comments.service';
import { ConnectionArgs, PageArgs, toPage } from '../common/pagination';
import { chargedText } from '../common/response-size';
import { selectsField } from '../common/selection';
import { inputValidationPipe } from '../common/validation';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';
import { AddCommentArgs } from './dto/add-comment.args';
import { CommentsConnectionArgs } from './dto/comment-connection.args';
import { CommentConnection } from './dto/comment-connection.type';
import { UpdateCommentArgs } from './dto/update-comment.args';

/**
 * Who wrote a tombstone, or a comment hidden from the viewer: nobody that can be looked up (the
 * nil id, and a handle no account can have).
 */
export const UNSHOWN_AUTHOR: User = Object.assign(new User(), {
  id: '00000000-0000-0000-0000-000000000000',
  name: '[deleted]',
  handle: '[deleted]',
  email: '',
  avatar: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** What a page of threads or replies read beside each comment: primed into the request's loaders. */
const repliesCounted = new WeakMap<Comment, number>();

/**
 * A connection of `page` from `items` (one more than the page when another follows), with what
 * the page read of each comment primed: authors, the viewer's likes, reply counts.
 */
function connectionOf(
  items: ThreadComment[],
  page: ThreadPage,
  order: CommentOrder,
  loaders: BlogLoaders,
  countAll: () => Promise<number>,
): CommentConnection {
  const shown = items.slice(0, page.first);
  loaders.knownUsers(shown.map((item) => item.author));
  for (const { comment, likedByMe, repliesCount } of shown) {
    loaders.commentLikedByViewer.prime(comment.id, likedByMe);
    // A reply's inReplyTo is mostly its thread's comment, or a reply of the same page.
    loaders.commentById.prime(comment.id, comment);
    if (repliesCount !== undefined) repliesCounted.set(comment, repliesCount);
  }
  const edges = shown.map(({ comment }) => ({
    cursor: encodeCommentCursor(comment, order),
    node: comment,
  }));
  return {
    edges,
    pageInfo: { hasNextPage: items.length > page.first, endCursor: edges.at(-1)?.cursor ?? null },
    totalCount: 0,
    countAll,
  };
}

@Resolver(() => Comment)
@BlogResolverEnhancers()
export class CommentsResolver {
  constructor(private readonly commentsService: CommentsService) {}

  @BlogMutation(() => Comment, {
    description:
      'Comments a published post as the signed-in user; with `parentId`, replies in the thread of that comment.',
  })
  addComment(@Args(inputValidationPipe) args: AddCommentArgs, @CurrentViewer() viewer: Viewer) {
    return this.commentsService.add(args.postId, args.text, viewer, args.parentId);
  }

  @BlogMutation(() => Comment, {
    description: 'Edits a comment: its author only. Sets `editedAt`.',
  })
  updateComment(
    @Args(inputValidationPipe) args: UpdateCommentArgs,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.commentsService.update(args.id, args.text, viewer);
  }

  @BlogMutation(() => ID, {
    description:
      "Deletes a comment: its author, the post's author or a moderator. A top-level comment with replies stays as a tombstone (status DELETED). Returns its id.",
  })
  deleteComment(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.commentsService.delete(id, viewer);
  }

  @BlogMutation(() => Comment, { description: 'Likes a comment; liking twice leaves one like.' })
  likeComment(
    @Args('commentId', { type: () => ID }) commentId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ) {
    loaders.primeAfterClear(() => loaders.commentLikedByViewer.prime(commentId, true));
    return this.commentsService.like(commentId, viewer);
  }

  @BlogMutation(() => Comment, {
    description: 'Takes back a like; unliking twice changes nothing.',
  })
  unlikeComment(
    @Args('commentId', { type: () => ID }) commentId: string,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ) {
    loaders.primeAfterClear(() => loaders.commentLikedByViewer.prime(commentId, false));
    return this.commentsService.unlike(commentId, viewer);
  }

  /** Charged to the answer's budget (see RequestScope); empty for a tombstone. */
  @ResolveField(() => String)
  text(comment: Comment, _args: unknown, context: BlogContext): string {
    return chargedText(shownTo(comment, context.viewer ?? null).text, context);
  }

  /** Empty for a tombstone, or a comment hidden from the viewer. */
  @ResolveField(() => String)
  textHtml(comment: Comment, _args: unknown, context: BlogContext): string {
    return chargedText(shownTo(comment, context.viewer ?? null).textHtml, context);
  }

  /**
   * The author at once when the request holds their row already (see `authorOf`); for a
   * tombstone, or a comment hidden from the viewer, {@link UNSHOWN_AUTHOR}.
   */
  @ResolveField(() => User, {
    description:
      'Its author; for a deleted comment kept as a tombstone, a placeholder ([deleted]).',
  })
  author(comment: Comment, _args: unknown, context: BlogContext): User | Promise<User> {
    if (!seesComment(comment, context.viewer ?? null)) return UNSHOWN_AUTHOR;
    return loadersOf(context).authorOf(comment.authorId, 'Comment', comment.id);
  }

  @ResolveField(() => Post)
  async post(comment: Comment, _args: unknown, context: BlogContext): Promise<Post> {
    const post = await loadersOf(context).postById.load(comment.postId);
    if (!post) throw new Error(`Comment ${comment.id} has no post ${comment.postId}`);
    return post;
  }

  @ResolveField(() => Comment, {
    nullable: true,
    description: 'The top-level comment whose thread this reply is in; null for a top-level one.',
  })
  parent(comment: Comment, _args: unknown, context: BlogContext): Promise<Comment | null> | null {
    return comment.parentId ? this.shown(comment.parentId, context) : null;
  }

  @ResolveField(() => Comment, {
    nullable: true,
    description:
      'The comment this reply answers (the top-level comment for a direct reply); null for a top-level one, or when it was deleted.',
  })
  inReplyTo(
    comment: Comment,
    _args: unknown,
    context: BlogContext,
  ): Promise<Comment | null> | null {
    return comment.inReplyToId ? this.shown(comment.inReplyToId, context) : null;
  }

  @ResolveField(() => CommentConnection, {
    description: "A top-level comment's replies, oldest first; empty for a reply.",
  })
  async replies(
    @Parent() comment: Comment,
    @Args() args: ConnectionArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<CommentConnection> {
    const page = toCommentPage(args, CommentOrder.OLDEST);
    const threaded = comment.parentId === null && page.first > 0;
    const items = threaded ? await loaders.repliesByThread(page).load(comment.id) : [];
    return connectionOf(items, page, CommentOrder.OLDEST, loaders, () =>
      Promise.resolve(this.repliesCount(comment, loaders)),
    );
  }

  @ResolveField(() => Int, { description: 'The replies the viewer sees; 0 for a reply.' })
  repliesCount(
    @Parent() comment: Comment,
    @Loaders() loaders: BlogLoaders,
  ): number | Promise<number> {
    if (comment.parentId !== null) return 0;
    return repliesCounted.get(comment) ?? loaders.repliesCountByThread.load(comment.id);
  }

  @ResolveField(() => Boolean, {
    description: 'Whether the viewer likes it; false when anonymous.',
  })
  isLikedByMe(@Parent() comment: Comment, @Loaders() loaders: BlogLoaders): Promise<boolean> {
    return loaders.commentLikedByViewer.load(comment.id);
  }

  private async shown(id: string, context: BlogContext): Promise<Comment | null> {
    const found = await loadersOf(context).commentById.load(id);
    return found && shownTo(found, context.viewer ?? null);
  }
}

/** The comment fields of Post. */
@Resolver(() => Post)
export class PostCommentsResolver {
  @ResolveField(() => [Comment], {
    description: 'Every comment the viewer sees, replies included, oldest first; no tombstones.',
  })
  comments(@Parent() post: Post, @Args() args: PageArgs, @Loaders() loaders: BlogLoaders) {
    return loaders.commentsByPost.for(toPage(args)).load(post.id);
  }

  @ResolveField(() => Int, { description: 'The comments `comments` lists, on every page.' })
  commentsCount(post: Post, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).commentsCountByPost.load(post.id);
  }

  @ResolveField(() => CommentConnection, {
    description:
      "The post's threads: its top-level comments (tombstones included) in `order`, each with its replies.",
  })
  async commentsConnection(
    @Parent() post: Post,
    @Args() args: CommentsConnectionArgs,
    @Loaders() loaders: BlogLoaders,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CommentConnection> {
    const order = args.order ?? CommentOrder.OLDEST;
    const page = toCommentPage(args, order);
    // A page that shows threads counts them in its own statement.
    const counted = selectsField(info, 'totalCount') && page.first > 0;
    const items =
      page.first > 0 ? await loaders.threadsByPost(order, page, counted).load(post.id) : [];
    const known = items[0]?.threadsCount ?? (counted && !page.after ? 0 : undefined);
    return connectionOf(items, page, order, loaders, () =>
      known === undefined ? loaders.threadsCountByPost.load(post.id) : Promise.resolve(known),
    );
  }
}

/** `totalCount` of a page of threads or replies. */
@Resolver(() => CommentConnection)
export class CommentConnectionResolver {
  @ResolveField(() => Int, {
    description: 'Every item of the connection, on every page: top-level comments, or replies.',
    complexity: COUNT_COMPLEXITY,
  })
  totalCount(@Parent() connection: CommentConnection): Promise<number> {
    return connection.countAll();
  }
}
