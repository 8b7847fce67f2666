import type { CorpusLine } from './corpus';
import { ADA, C1, C2, C4, CYD, DEE, P1, P2 } from './seed';

const NODE =
  'id text textHtml status likesCount isLikedByMe repliesCount editedAt parent { id } inReplyTo { id } author { handle }';
const THREADS = `totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${NODE} replies(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id text inReplyTo { id } } } } } }`;

/** Threads, comment edits and likes (issue 65): every new field and mutation. */
// prettier-ignore
export const conversing: CorpusLine[] = [
  ['commentsConnection: oldest, anonymous', `{ post(id: "${P1}") { commentsConnection { ${THREADS} } } }`],
  ['commentsConnection: newest, signed in', `{ post(id: "${P1}") { commentsConnection(order: NEWEST, first: 2) { ${THREADS} } } }`, null, 'user'],
  ['commentsConnection: top', `{ post(id: "${P1}") { commentsConnection(order: TOP) { ${THREADS} } } }`, null, 'other'],
  ['commentsConnection: totalCount alone', `{ posts(first: 5) { id commentsConnection(first: 0) { totalCount } } }`],
  ['commentsConnection: a bad cursor', `{ post(id: "${P1}") { commentsConnection(after: "bm9wZQ") { totalCount } } }`],
  ['commentsConnection: too large a page', `{ post(id: "${P1}") { commentsConnection(first: 101) { totalCount } } }`],
  ['comments: new fields', `{ post(id: "${P1}") { comments { id status likesCount isLikedByMe repliesCount editedAt parent { id } inReplyTo { id } } } }`, null, 'admin'],
  ['addComment: a reply', `mutation { addComment(postId: "${P1}", text: "Agreed", parentId: "${C1}") { id text parent { id } inReplyTo { id } repliesCount post { id } } }`, null, 'quiet'],
  ['addComment: a parent on another post', `mutation { addComment(postId: "${P2}", text: "x", parentId: "${C1}") { id } }`, null, 'quiet'],
  ['addComment: a parent that is no id', `mutation { addComment(postId: "${P1}", text: "x", parentId: "nope") { id } }`, null, 'quiet'],
  ['updateComment: its author', `mutation { updateComment(id: "${C1}", text: "First, **edited**") { id text textHtml status } }`, null, 'other'],
  ['updateComment: another user', `mutation { updateComment(id: "${C1}", text: "mine") { id } }`, null, 'user'],
  ['updateComment: anonymous', `mutation { updateComment(id: "${C1}", text: "mine") { id } }`],
  ['updateComment: blank', `mutation { updateComment(id: "${C1}", text: "  ") { id } }`, null, 'other'],
  ['likeComment: twice in one operation', `mutation { a: likeComment(commentId: "${C2}") { id likesCount isLikedByMe } b: likeComment(commentId: "${C2}") { likesCount } }`, null, 'user'],
  ['likeComment: anonymous', `mutation { likeComment(commentId: "${C2}") { id } }`],
  ['likeComment: unknown', 'mutation { likeComment(commentId: "00000000-0000-7000-8000-000000000000") { id } }', null, 'user'],
  ['unlikeComment: not liked', `mutation { unlikeComment(commentId: "${C4}") { id likesCount isLikedByMe } }`, null, 'user'],
  ['deleteComment: then the threads', `mutation { deleteComment(id: "${C2}") }`, null, 'admin'],
  ['notifications: the comment', '{ notifications { edges { node { kind comment { id text } } } } }', null, 'user'],
  ['hideComment: the editor', `mutation { hideComment(id: "${C4}") { id status text } }`, null, 'editor'],
  ['hideComment: a user', `mutation { hideComment(id: "${C4}") { id } }`, null, 'user'],
  ['restoreComment: the admin', `mutation { restoreComment(id: "${C1}") { id status } }`, null, 'admin'],
  ['lockComments: the post author', `mutation { lockComments(postId: "${P2}", locked: true) { id commentsLocked } }`, null, 'user'],
  ['lockComments: another user', `mutation { lockComments(postId: "${P2}", locked: true) { id } }`, null, 'other'],
  ['post: commentsLocked and hiddenAt', `{ post(id: "${P1}") { commentsLocked hiddenAt } }`, null, 'user'],
  ['banUser: the editor bans a user', `mutation { banUser(userId: "${DEE}", reason: "Spam", until: "2999-01-01T00:00:00.000Z") { id banned bannedUntil banReason } }`, null, 'editor'],
  ['banUser: an admin, by the editor', `mutation { banUser(userId: "${ADA}", reason: "x") { id } }`, null, 'editor'],
  ['banUser: by a user', `mutation { banUser(userId: "${CYD}", reason: "x") { id } }`, null, 'user'],
  ['banUser: a blank reason', `mutation { banUser(userId: "${CYD}", reason: " ") { id } }`, null, 'admin'],
  ['unbanUser: not banned', `mutation { unbanUser(userId: "${CYD}") { id banned bannedUntil } }`, null, 'admin'],
  ['User ban fields: another user', `{ user(id: "${DEE}") { banned bannedUntil banReason } }`, null, 'other'],
  ['moderationLog: the admin', '{ moderationLog { totalCount pageInfo { hasNextPage } edges { node { action targetType reason summary actor { handle } } } } }', null, 'admin'],
  ['moderationLog: the editor', '{ moderationLog { totalCount } }', null, 'editor'],
  ['moderationLog: anonymous', '{ moderationLog { totalCount } }'],
  ['moderationLog: a bad cursor', '{ moderationLog(after: "bm9wZQ") { totalCount } }', null, 'admin'],
  ['introspection: CommentStatus and CommentOrder', '{ a: __type(name: "CommentStatus") { enumValues { name description } } b: __type(name: "CommentOrder") { enumValues { name } } }'],
];
