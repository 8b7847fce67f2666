import { registerEnumType } from '@nestjs/graphql';

/** Why a reader reports a post or a comment; stored as its name. */
export enum ReportReason {
  SPAM = 'SPAM',
  HARASSMENT = 'HARASSMENT',
  HATE = 'HATE',
  MISINFORMATION = 'MISINFORMATION',
  OFF_TOPIC = 'OFF_TOPIC',
  ILLEGAL = 'ILLEGAL',
  OTHER = 'OTHER',
}

registerEnumType(ReportReason, {
  name: 'ReportReason',
  description: 'Why a post or a comment was reported.',
  valuesMap: {
    SPAM: { description: 'Advertising, scams, or the same thing posted again and again.' },
    HARASSMENT: { description: 'Attacks on or threats to a person.' },
    HATE: { description: 'Hate against a group of people.' },
    MISINFORMATION: { description: 'False or misleading claims.' },
    OFF_TOPIC: { description: 'Nothing to do with the post or the blog.' },
    ILLEGAL: { description: 'Content that breaks the law.' },
    OTHER: { description: 'Something else: the note says what.' },
  },
});

/** The order of {@link ReportReason}, in which `ModerationItem.reasons` lists them. */
export const REPORT_REASONS: readonly ReportReason[] = Object.values(ReportReason);

/**
 * Where a moderation item stands; stored in lower case (`open`, `resolved`). Its values are its
 * names, as an argument's enum needs: the cost limit reads variables by the enum's names.
 */
export enum ReportStatus {
  OPEN = 'OPEN',
  RESOLVED = 'RESOLVED',
}

registerEnumType(ReportStatus, {
  name: 'ReportStatus',
  description: 'Where the reports of a post or comment stand.',
  valuesMap: {
    OPEN: { description: 'Waiting for a moderator; new reports of the target join it.' },
    RESOLVED: { description: 'A moderator decided (see `action`).' },
  },
});

/** What a moderator decided about the reports of a post or comment; stored as its name. */
export enum ReportAction {
  DISMISS = 'DISMISS',
  HIDE = 'HIDE',
  DELETE = 'DELETE',
  BAN_AUTHOR = 'BAN_AUTHOR',
}

registerEnumType(ReportAction, {
  name: 'ReportAction',
  description: 'What a moderator decides about the reports of a post or comment.',
  valuesMap: {
    DISMISS: {
      description:
        'Nothing wrong: the reports are closed, and a target hidden by them is shown again.',
    },
    HIDE: { description: 'Hide the post or comment from everyone but its author and moderators.' },
    DELETE: { description: 'Delete the post or comment.' },
    BAN_AUTHOR: {
      description:
        "Ban the target's author from writing, for good, and hide the target. Editors may not ban editors or admins.",
    },
  },
});
