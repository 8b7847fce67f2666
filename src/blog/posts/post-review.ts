import { registerEnumType } from '@nestjs/graphql';

import { isModerator } from '../users/roles';
import type { Viewer } from '../users/viewer';

/** Where a draft stands in editorial review; stored as its name, NONE as null. */
export enum PostReviewState {
  NONE = 'NONE',
  AWAITING_REVIEW = 'AWAITING_REVIEW',
  REJECTED = 'REJECTED',
}

registerEnumType(PostReviewState, {
  name: 'PostReviewState',
  description: 'Where a draft stands in editorial review.',
  valuesMap: {
    NONE: { description: 'Never submitted, or published since.' },
    AWAITING_REVIEW: {
      description:
        'Submitted with `submitPostForReview`: in `postsAwaitingReview` until an editor publishes or rejects it.',
    },
    REJECTED: {
      description:
        'Sent back by an editor with `rejectPost`; `rejectionReason` says why. Submitting it again puts it back in the queue.',
    },
  },
});

/** The length of a rejection's reason, trimmed. */
export const REJECTION_REASON_LENGTH = { min: 1, max: 500 } as const;

/** A post's review, as stored. */
export interface PostReview {
  authorId: string;
  reviewState: PostReviewState | null;
}

/** Whether `viewer` may read `post`'s review state and rejection reason: its author and editors. */
export function mayViewReview(post: Pick<PostReview, 'authorId'>, viewer: Viewer): boolean {
  return post.authorId === viewer?.id || isModerator(viewer);
}

/** Whether `post` waits in the review queue, where editors see it, draft though it is. */
export function awaitsReview(post: Pick<PostReview, 'reviewState'>): boolean {
  return post.reviewState === PostReviewState.AWAITING_REVIEW;
}
