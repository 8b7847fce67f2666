import { Args, ID, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';

import { CurrentViewer, Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { Comment } from './comment.entity';
import { CommentsService } from './comments.service';
import { PageArgs, toPage } from '../common/pagination';
import { chargedText } from '../common/response-size';
import { inputValidationPipe } from '../common/validation';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';
import { Viewer } from '../users/viewer';
import { AddCommentArgs } from './dto/add-comment.args';

@Resolver(() => Comment)
@BlogResolverEnhancers()
export class CommentsResolver {
  constructor(private readonly commentsService: CommentsService) {}

  @BlogMutation(() => Comment, { description: 'Comments a published post as the signed-in user.' })
  addComment(@Args(inputValidationPipe) args: AddCommentArgs, @CurrentViewer() viewer: Viewer) {
    return this.commentsService.add(args.postId, args.text, viewer);
  }

  @BlogMutation(() => ID, {
    description: "Deletes a comment: its author, the post's author or an admin. Returns its id.",
  })
  deleteComment(@Args('id', { type: () => ID }) id: string, @CurrentViewer() viewer: Viewer) {
    return this.commentsService.delete(id, viewer);
  }

  /** Charged to the answer's budget (see RequestScope). */
  @ResolveField(() => String)
  text(comment: Comment, _args: unknown, context: BlogContext): string {
    return chargedText(comment.text, context);
  }

  /** The author at once when the request holds their row already (see `authorOf`). */
  @ResolveField(() => User)
  author(comment: Comment, _args: unknown, context: BlogContext): User | Promise<User> {
    return loadersOf(context).authorOf(comment.authorId, 'Comment', comment.id);
  }

  @ResolveField(() => Post)
  async post(comment: Comment, _args: unknown, context: BlogContext): Promise<Post> {
    const post = await loadersOf(context).postById.load(comment.postId);
    if (!post) throw new Error(`Comment ${comment.id} has no post ${comment.postId}`);
    return post;
  }
}

/** The comment fields of Post. */
@Resolver(() => Post)
export class PostCommentsResolver {
  @ResolveField(() => [Comment], { description: 'Oldest first.' })
  comments(@Parent() post: Post, @Args() args: PageArgs, @Loaders() loaders: BlogLoaders) {
    return loaders.commentsByPost.for(toPage(args)).load(post.id);
  }

  @ResolveField(() => Int)
  commentsCount(post: Post, _args: unknown, context: BlogContext): Promise<number> {
    return loadersOf(context).commentsCountByPost.load(post.id);
  }
}
