import DataLoader from 'dataloader';

import { Comment } from './comment.entity';
import { CommentsService } from './comments.service';
import { byKeys, counts, LoaderCache, LoadersOf, PagedLoaders } from '../common/loaders';

/** The comment loaders of one request: comments by id, a post's page of comments, and their count. */
class RequestCommentsLoaders {
  constructor(
    private readonly comments: CommentsService,
    private readonly cache: LoaderCache,
  ) {}

  get commentById(): DataLoader<string, Comment | null> {
    return this.cache.once(
      'commentById',
      () =>
        new DataLoader<string, Comment | null>(async (ids) =>
          byKeys(ids, await this.comments.findByIds(ids), (c) => c.id),
        ),
    );
  }

  get commentsByPost(): PagedLoaders<Comment> {
    return this.cache.once(
      'commentsByPost',
      () => new PagedLoaders((ids, page) => this.comments.listByPosts(ids, page)),
    );
  }

  get commentsCountByPost(): DataLoader<string, number> {
    return this.cache.once('commentsCountByPost', () =>
      counts((ids) => this.comments.countByPosts(ids)),
    );
  }
}

export function commentsLoaders(comments: CommentsService, cache: LoaderCache) {
  return new RequestCommentsLoaders(comments, cache);
}

export type CommentsLoaders = LoadersOf<RequestCommentsLoaders>;
