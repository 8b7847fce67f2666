import DataLoader from 'dataloader';

import { Comment } from './comment.entity';
import { CommentsService } from './comments.service';
import { byKeys, counts, LoaderCache, PagedLoaders } from '../common/loaders';

/** The comment loaders of one request: comments by id, a post's page of comments, and their count. */
export function commentsLoaders(comments: CommentsService, cache: LoaderCache) {
  return {
    get commentById(): DataLoader<string, Comment | null> {
      return cache.once(
        'commentById',
        () =>
          new DataLoader<string, Comment | null>(async (ids) =>
            byKeys(ids, await comments.findByIds(ids), (c) => c.id),
          ),
      );
    },

    get commentsByPost(): PagedLoaders<Comment> {
      return cache.once(
        'commentsByPost',
        () => new PagedLoaders((ids, page) => comments.listByPosts(ids, page)),
      );
    },

    get commentsCountByPost(): DataLoader<string, number> {
      return cache.once('commentsCountByPost', () => counts((ids) => comments.countByPosts(ids)));
    },
  };
}

export type CommentsLoaders = ReturnType<typeof commentsLoaders>;
