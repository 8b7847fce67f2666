import { registerEnumType } from '@nestjs/graphql';

/** Where a comment stands; stored in lower case (`published` …). */
export enum CommentStatus {
  PUBLISHED = 'published',
  HIDDEN = 'hidden',
  DELETED = 'deleted',
  HELD = 'held',
}

registerEnumType(CommentStatus, {
  name: 'CommentStatus',
  description: 'Where a comment stands.',
  valuesMap: {
    PUBLISHED: { description: 'Shown to everyone.' },
    HIDDEN: { description: 'Hidden by a moderator: shown only to its author and moderators.' },
    DELETED: {
      description:
        'Deleted while it had replies: a tombstone that keeps its thread, without text or author.',
    },
    HELD: { description: 'Held for review: shown only to its author and moderators.' },
  },
});

/** The order of a post's threads. */
export enum CommentOrder {
  OLDEST = 'OLDEST',
  NEWEST = 'NEWEST',
  TOP = 'TOP',
}

registerEnumType(CommentOrder, {
  name: 'CommentOrder',
  description: "The order of a post's top-level comments.",
  valuesMap: {
    OLDEST: { description: 'Oldest first.' },
    NEWEST: { description: 'Newest first.' },
    TOP: { description: 'Most liked first, then newest.' },
  },
});
