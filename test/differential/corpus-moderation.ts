import type { CorpusLine } from './corpus';
import { C1, C4, D1, MISSING, P1, P4 } from './seed';
import { M1, M2, M3, R11 } from './seed-moderation';

const encode = (text: string) => Buffer.from(text).toString('base64url');
const TARGET =
  'target { __typename ... on Post { id title postStatus: status author { handle } } ... on Comment { id text commentStatus: status author { handle } post { id } } }';
const ITEM = `id status action reports reasons createdAt resolvedAt resolvedBy { handle } ${TARGET} reportList { id reason note createdAt reporter { handle } }`;
const QUEUE = `totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${ITEM} } }`;

/** Reports and the moderation queue (issue 65): every new field and mutation. */
// prettier-ignore
export const moderating: CorpusLine[] = [
  ['moderationQueue: open, the admin', `{ moderationQueue { ${QUEUE} } }`, null, 'admin'],
  ['moderationQueue: resolved, the editor', `{ moderationQueue(status: RESOLVED) { ${QUEUE} } }`, null, 'editor'],
  ['moderationQueue: a page after M1', `{ moderationQueue(first: 1, after: "${encode(`item:${M1}`)}") { ${QUEUE} } }`, null, 'editor'],
  ['moderationQueue: first 0', '{ moderationQueue(first: 0) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } }', null, 'admin'],
  ['moderationQueue: reportList paged', `{ moderationQueue { edges { node { id reportList(first: 1) { reason } rest: reportList(first: 1, after: "${R11}") { reason } } } } }`, null, 'admin'],
  ['moderationQueue: a cursor of the other status', `{ moderationQueue(status: RESOLVED, after: "${encode(`item:${M1}`)}") { totalCount } }`, null, 'admin'],
  ['moderationQueue: a bad cursor', '{ moderationQueue(after: "bm9wZQ") { totalCount } }', null, 'admin'],
  ['moderationQueue: an author', '{ moderationQueue { totalCount } }', null, 'user'],
  ['moderationQueue: the contributor', '{ moderationQueue { edges { node { id } } } }', null, 'contributor'],
  ['moderationQueue: anonymous', '{ moderationQueue { edges { node { id } } } }'],
  ['reportPost: a new report', `mutation { reportPost(postId: "${P1}", reason: MISINFORMATION, note: "  Wrong dates  ") }`, null, 'other'],
  ['reportPost: joins an open item', `mutation { reportPost(postId: "${P4}", reason: ILLEGAL) }`, null, 'editor'],
  ['reportPost: a second time', `mutation { reportPost(postId: "${P4}", reason: SPAM) }`, null, 'user'],
  ['reportPost: own post', `mutation { reportPost(postId: "${P1}", reason: SPAM) }`, null, 'user'],
  ['reportPost: a draft', `mutation { reportPost(postId: "${D1}", reason: SPAM) }`, null, 'other'],
  ['reportPost: missing', `mutation { reportPost(postId: "${MISSING}", reason: SPAM) }`, null, 'other'],
  ['reportPost: anonymous', `mutation { reportPost(postId: "${P1}", reason: SPAM) }`],
  ['reportPost: a note too long', `mutation { reportPost(postId: "${P1}", reason: OTHER, note: "${'x'.repeat(501)}") }`, null, 'other'],
  ['reportPost: an unknown reason', `mutation { reportPost(postId: "${P1}", reason: RUDE) }`, null, 'other'],
  ['reportComment: a new report', `mutation { reportComment(commentId: "${C1}", reason: HARASSMENT) }`, null, 'quiet'],
  ['reportComment: own comment', `mutation { reportComment(commentId: "${C4}", reason: SPAM) }`, null, 'other'],
  ['reportComment: twice in one operation', `mutation { a: reportComment(commentId: "${C1}", reason: SPAM) b: reportComment(commentId: "${C1}", reason: HATE) }`, null, 'contributor'],
  ['resolveReport: DISMISS', `mutation { resolveReport(id: "${M1}", action: DISMISS) { ${ITEM} } }`, null, 'editor'],
  ['resolveReport: HIDE a post', `mutation { resolveReport(id: "${M1}", action: HIDE) { ${ITEM} } }`, null, 'admin'],
  ['resolveReport: HIDE a comment', `mutation { resolveReport(id: "${M2}", action: HIDE) { ${ITEM} } }`, null, 'editor'],
  ['resolveReport: DELETE a comment', `mutation { resolveReport(id: "${M2}", action: DELETE) { ${ITEM} } }`, null, 'admin'],
  ['resolveReport: DELETE a post', `mutation { resolveReport(id: "${M1}", action: DELETE) { ${ITEM} } }`, null, 'admin'],
  ['resolveReport: BAN_AUTHOR', `mutation { resolveReport(id: "${M1}", action: BAN_AUTHOR) { ${ITEM} } }`, null, 'editor'],
  ['resolveReport: resolved already', `mutation { resolveReport(id: "${M3}", action: HIDE) { id } }`, null, 'admin'],
  ['resolveReport: an author', `mutation { resolveReport(id: "${M1}", action: DISMISS) { id } }`, null, 'other'],
  ['resolveReport: missing', `mutation { resolveReport(id: "${MISSING}", action: DISMISS) { id } }`, null, 'admin'],
  ['resolveReport: anonymous', `mutation { resolveReport(id: "${M1}", action: DISMISS) { id } }`],
  ['introspection: the report enums and the target union', '{ a: __type(name: "ReportReason") { enumValues { name description } } b: __type(name: "ReportStatus") { enumValues { name } } c: __type(name: "ReportAction") { enumValues { name } } d: __type(name: "ModerationTarget") { possibleTypes { name } } }'],
];
