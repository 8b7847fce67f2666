import { Injectable } from '@nestjs/common';
import { getArgumentValues, getNamedType, GraphQLObjectType, GraphQLResolveInfo } from 'graphql';

import { CommentsService } from './comments.service';
import type { BlogLoaders } from '../blog-loaders';
import { Page, PageArgs, toPage } from '../common/pagination';
import { firstSelection } from '../common/selection';
import { PostDetailReader } from '../posts/post-detail-reader';
import { Post } from '../posts/post.entity';
import { canSee } from '../posts/posts.service';
import { Viewer } from '../users/viewer';

/**
 * Reads a post with its author and the first page of its comments in one statement, for a
 * `post` whose selection asks for its comments; `Post.comments` then finds the page in its loader.
 */
@Injectable()
export class PostCommentsReader implements PostDetailReader {
  constructor(private readonly comments: CommentsService) {}

  pageOf(info: GraphQLResolveInfo): Page | null {
    const node = firstSelection(info, 'comments');
    if (!node) return null;
    const field = (getNamedType(info.returnType) as GraphQLObjectType).getFields().comments;
    if (!field) return null;
    let page: Page;
    try {
      page = toPage(getArgumentValues(field, node, info.variableValues) as PageArgs);
    } catch {
      // Out of bounds: `comments` refuses it itself, as it does without this read.
      return null;
    }
    return page.after === null && page.first > 0 ? page : null;
  }

  async read(id: string, page: Page, viewer: Viewer, loaders: BlogLoaders): Promise<Post | null> {
    const found = await this.comments.findPostWithPage(id, page, viewer);
    if (!found || !canSee(found.post, viewer)) return null;
    loaders.knownUsers([found.author]);
    loaders.commentsByPost.prime(page, found.post.id, found.comments);
    return found.post;
  }
}
