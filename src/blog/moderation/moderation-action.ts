import { registerEnumType } from '@nestjs/graphql';

/** What a moderator (or the auto-hide rule) did; stored as its name. */
export enum ModerationAction {
  HIDE_COMMENT = 'HIDE_COMMENT',
  RESTORE_COMMENT = 'RESTORE_COMMENT',
  DELETE_COMMENT = 'DELETE_COMMENT',
  HIDE_POST = 'HIDE_POST',
  RESTORE_POST = 'RESTORE_POST',
  DELETE_POST = 'DELETE_POST',
  LOCK_COMMENTS = 'LOCK_COMMENTS',
  UNLOCK_COMMENTS = 'UNLOCK_COMMENTS',
  BAN_USER = 'BAN_USER',
  UNBAN_USER = 'UNBAN_USER',
  DISMISS_REPORTS = 'DISMISS_REPORTS',
  SET_ROLE = 'SET_ROLE',
  REJECT_POST = 'REJECT_POST',
}

registerEnumType(ModerationAction, {
  name: 'ModerationAction',
  description: 'What a moderation log entry records.',
  valuesMap: {
    HIDE_COMMENT: { description: 'A comment hidden (by hideComment or a resolved report).' },
    RESTORE_COMMENT: { description: 'A hidden comment shown again.' },
    DELETE_COMMENT: { description: 'A comment deleted by a moderator.' },
    HIDE_POST: {
      description: 'A post hidden: by a resolved report, or by the auto-hide rule (no actor).',
    },
    RESTORE_POST: { description: 'A hidden post shown again (its reports dismissed).' },
    DELETE_POST: { description: 'A post deleted by a moderator.' },
    LOCK_COMMENTS: { description: "A post's comments locked." },
    UNLOCK_COMMENTS: { description: "A post's comments unlocked." },
    BAN_USER: { description: 'A user banned from writing.' },
    UNBAN_USER: { description: 'A ban lifted.' },
    DISMISS_REPORTS: { description: 'The reports of a post or comment dismissed.' },
    SET_ROLE: { description: "A user's role changed." },
    REJECT_POST: { description: 'A post under review rejected.' },
  },
});

/** What a moderation log entry is about. */
export enum ModerationTargetType {
  POST = 'POST',
  COMMENT = 'COMMENT',
  USER = 'USER',
}

registerEnumType(ModerationTargetType, {
  name: 'ModerationTargetType',
  description: 'The kind of thing a moderation log entry is about.',
});
