import { CommentStatus } from './comment-status';
import { Comment } from './comment.entity';
import { isModerator } from '../users/roles';
import { Viewer } from '../users/viewer';

/** Moderators (editors and admins) see hidden and held comments, and may delete any. */
export function isCommentModerator(viewer: Viewer): boolean {
  return isModerator(viewer);
}

/** Whether `viewer` sees `comment` with its text: hidden and held ones only its author and moderators. */
export function seesComment(comment: Comment, viewer: Viewer): boolean {
  if (comment.status === CommentStatus.PUBLISHED) return true;
  if (comment.status === CommentStatus.DELETED) return false;
  return comment.authorId === viewer?.id || isCommentModerator(viewer);
}

/**
 * `comment` as `viewer` may see it: itself, or, for a tombstone or a comment hidden from them,
 * a copy without its text (its author is not shown either: see CommentsResolver.author).
 */
export function shownTo(comment: Comment, viewer: Viewer): Comment {
  if (seesComment(comment, viewer)) return comment;
  return Object.assign(new Comment(), { ...comment, text: '', textHtml: '', editedAt: null });
}
