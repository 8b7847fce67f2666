import DataLoader from 'dataloader';

import { Comment } from './comment.entity';
import { ThreadComment } from './comment.rows';
import { CommentsService, ThreadPage } from './comments.service';
import { ThreadOrder } from './comments.sql';
import {
  byKeys,
  counts,
  LoaderCache,
  LoadersOf,
  PagedLoaders,
  viewerFlags,
} from '../common/loaders';
import { pageKey } from '../common/pagination';
import { Viewer } from '../users/viewer';

/** Pages of threads or replies differ by where they start: a comment, and for TOP its likes. */
const threadPageKey = (page: ThreadPage) => `${pageKey(page)}:${page.afterLikes ?? ''}`;

/**
 * The comment loaders of one request, for its viewer (who sees hidden and held comments, and
 * whose likes are theirs): comments by id, a post's flat page and its count, a post's threads,
 * a thread's replies, their counts, and the viewer's likes.
 */
class RequestCommentsLoaders {
  constructor(
    private readonly comments: CommentsService,
    private readonly cache: LoaderCache,
    private readonly viewer: Viewer,
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
      () => new PagedLoaders((ids, page) => this.comments.listByPosts(ids, page, this.viewer)),
    );
  }

  get commentsCountByPost(): DataLoader<string, number> {
    return this.cache.once('commentsCountByPost', () =>
      counts((ids) => this.comments.countByPosts(ids, this.viewer)),
    );
  }

  /**
   * A loader of each post's page of threads in `order`; `counted`, with each post's threads
   * counted by the same statement.
   */
  threadsByPost(
    order: ThreadOrder,
    page: ThreadPage,
    counted: boolean,
  ): DataLoader<string, ThreadComment[]> {
    const name = `${counted ? 'countedThreadsByPost' : 'threadsByPost'}:${order}`;
    return this.cache
      .once(
        name,
        () =>
          new PagedLoaders(
            (ids, at: ThreadPage) => this.comments.threadsOf(ids, order, at, this.viewer, counted),
            threadPageKey,
          ),
      )
      .for(page);
  }

  /** A loader of each thread's page of replies. */
  repliesByThread(page: ThreadPage): DataLoader<string, ThreadComment[]> {
    return this.cache
      .once(
        'repliesByThread',
        () =>
          new PagedLoaders(
            (ids, at: ThreadPage) => this.comments.repliesOf(ids, at, this.viewer),
            threadPageKey,
          ),
      )
      .for(page);
  }

  get threadsCountByPost(): DataLoader<string, number> {
    return this.cache.once('threadsCountByPost', () =>
      counts((ids) => this.comments.countThreads(ids, this.viewer)),
    );
  }

  get repliesCountByThread(): DataLoader<string, number> {
    return this.cache.once('repliesCountByThread', () =>
      counts((ids) => this.comments.countReplies(ids, this.viewer)),
    );
  }

  get commentLikedByViewer(): DataLoader<string, boolean> {
    return this.cache.once('commentLikedByViewer', () =>
      viewerFlags(this.viewer?.id ?? null, (viewerId, ids) => this.comments.likedBy(viewerId, ids)),
    );
  }
}

export function commentsLoaders(comments: CommentsService, cache: LoaderCache, viewer: Viewer) {
  return new RequestCommentsLoaders(comments, cache, viewer);
}

export type CommentsLoaders = LoadersOf<RequestCommentsLoaders>;
