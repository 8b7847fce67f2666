import { EVENT_TYPES, WebhookEvent } from './webhook-event';

/** The version of every payload's shape; additions keep it, a change that breaks would not. */
export const PAYLOAD_VERSION = 1;

/** What a payload needs of a post. */
export interface PostFacts {
  id: string;
  authorId: string;
  title: string;
  slug: string;
  excerpt?: string | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
  scheduledAt?: Date | null;
}

/** What a payload needs of a comment. */
export interface CommentFacts {
  id: string;
  postId: string;
  authorId: string;
  parentId: string | null;
  inReplyToId: string | null;
  text: string;
  textHtml: string;
  createdAt: Date;
}

/** What a payload needs of a user: nothing private (no email, no password hash). */
export interface UserFacts {
  id: string;
  handle: string;
  name: string;
  role: string;
  createdAt: Date;
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/**
 * A published post as `post.published` and `post.updated` tell it: what a feed shows of it, and
 * its address (`url`, null without SITE_URL). Not its content: read it with `post(id:)`.
 */
export function publishedPostData(post: PostFacts, url: string | null) {
  return {
    post: {
      id: post.id,
      authorId: post.authorId,
      title: post.title,
      slug: post.slug,
      url,
      excerpt: post.excerpt ?? null,
      createdAt: iso(post.createdAt),
      updatedAt: iso(post.updatedAt),
      publishedAt: iso(post.publishedAt),
    },
  };
}

/** A scheduled post, as `post.scheduled` tells it: still a draft, so its title and time alone. */
export function scheduledPostData(post: PostFacts, scheduledAt: Date) {
  return {
    post: {
      id: post.id,
      authorId: post.authorId,
      title: post.title,
      slug: post.slug,
      scheduledAt: iso(scheduledAt),
    },
  };
}

/**
 * A post that left the public site (`post.unpublished`, `post.deleted`): the id, the slug and
 * address it had, for caches to drop. A deleted post that was scheduled, never published, tells
 * its id alone.
 */
export function removedPostData(post: PostFacts, url: string | null, at: Date) {
  const wasPublic = post.publishedAt !== null;
  return {
    post: {
      id: post.id,
      authorId: post.authorId,
      slug: wasPublic ? post.slug : null,
      url: wasPublic ? url : null,
      wasPublished: wasPublic,
    },
    at: iso(at),
  };
}

/** A published comment, as `comment.created` tells it. */
export function commentData(comment: CommentFacts) {
  return {
    comment: {
      id: comment.id,
      postId: comment.postId,
      authorId: comment.authorId,
      parentId: comment.parentId,
      inReplyToId: comment.inReplyToId,
      text: comment.text,
      textHtml: comment.textHtml,
      createdAt: iso(comment.createdAt),
    },
  };
}

/** A new account, as `user.created` tells it: its public profile, never its email. */
export function userData(user: UserFacts) {
  return {
    user: {
      id: user.id,
      handle: user.handle,
      name: user.name,
      role: user.role,
      createdAt: iso(user.createdAt),
    },
  };
}

/** The signed body of a delivery: `{ type, version, timestamp, data }`. */
export function payloadOf(event: WebhookEvent, at: Date, data: object): string {
  return JSON.stringify({
    type: EVENT_TYPES[event],
    version: PAYLOAD_VERSION,
    timestamp: at.toISOString(),
    data,
  });
}
