import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';

import { seedImages } from './seed-images';
import { seedModeration } from './seed-moderation';
import { seedWebhooks } from './seed-webhooks';
import { Comment, Follow, Like, Post, PostReviewState, Role, User } from '../../src/blog';
import { excerptOf, renderCommentText, renderPostContent } from '../../src/blog/common/content';
import { slugOfTitle } from '../../src/blog/posts/post-slug';

/**
 * The data every document of the differential corpus starts from, with fixed ids and timestamps
 * so that both instances hold the same rows and the corpus can name them.
 */
const id = (n: string) => `01920000-0000-7000-8000-${n.padStart(12, '0')}`;

/**
 * Users: Ada is an admin; Bob, Cyd and Dee are authors; Eve is an editor and Fay a contributor.
 * Every password is PASSWORD.
 */
export const ADA = id('a1');
export const BOB = id('b2');
export const CYD = id('c3');
export const DEE = id('d4');
export const EVE = id('e5');
export const FAY = id('f6');
export const PASSWORD = 'demo-password';

/** Posts, oldest first: P1-P6 published, D1 (Bob's) and D2 (Ada's) drafts. */
export const P1 = id('101');
export const P2 = id('102');
export const P3 = id('103');
export const P4 = id('104');
export const P5 = id('105');
export const P6 = id('106');
export const D1 = id('1d1');
export const D2 = id('1d2');
/** Fay's drafts: R1 awaits review, R2 was rejected. */
export const R1 = id('1e1');
export const R2 = id('1e2');
export const REJECTION = 'Needs sources.';

/** Comments: C1-C3 on P1, C4 on P2, C5 on P5. */
export const C1 = id('c01');
export const C2 = id('c02');
export const C3 = id('c03');
export const C4 = id('c04');
export const C5 = id('c05');

/**
 * Notifications, oldest first: Bob's N1-N6 (N1 and N2 read, N6 about his draft D1 and so
 * hidden), Cyd's N7-N8, Dee's N9 (read) and Ada's N10.
 */
export const N1 = id('e01');
export const N2 = id('e02');
export const N3 = id('e03');
export const N4 = id('e04');
export const N5 = id('e05');
export const N6 = id('e06');
export const N7 = id('e07');
export const N8 = id('e08');
export const N9 = id('e09');
export const N10 = id('e10');

/** An id that names nothing. */
export const MISSING = '01900000-0000-7000-8000-000000000000';

/** Seed timestamps lie in 2025; anything the service writes during the run is later. */
const at = (day: number, second = 0) =>
  new Date(Date.UTC(2025, 0, day, 12, 0, second, day * 7 + second));

const USERS = [
  { id: ADA, name: 'Ada Admin', handle: 'ada', role: Role.ADMIN, day: 1 },
  { id: BOB, name: 'Bob Writer', handle: 'bob', role: Role.AUTHOR, day: 2 },
  { id: CYD, name: 'Cyd Reader', handle: 'cyd', role: Role.AUTHOR, day: 3 },
  { id: DEE, name: 'Dee Quiet', handle: 'dee', role: Role.AUTHOR, day: 4 },
  { id: EVE, name: 'Eve Editor', handle: 'eve', role: Role.EDITOR, day: 5 },
  { id: FAY, name: 'Fay Contributor', handle: 'fay', role: Role.CONTRIBUTOR, day: 6 },
];

const POSTS: [string, string, string, number, boolean][] = [
  [P1, BOB, 'Hello world', 10, true],
  [P2, BOB, 'Second thoughts', 11, true],
  [P3, ADA, 'Admin notes', 12, true],
  [P4, CYD, 'Reading list', 13, true],
  [P5, BOB, 'Third time', 14, true],
  [P6, CYD, 'Quiet post', 15, true],
  [D1, BOB, 'Bob draft', 16, false],
  [D2, ADA, 'Ada draft', 17, false],
  [R1, FAY, 'Fay pitch', 18, false],
  [R2, FAY, 'Fay rejected', 19, false],
];

/** The review of Fay's drafts: R1 waits in the queue, R2 came back with REJECTION. */
const REVIEWS: Record<string, Partial<Post>> = {
  [R1]: { reviewState: PostReviewState.AWAITING_REVIEW, reviewRequestedAt: at(18, 3) },
  [R2]: { reviewState: PostReviewState.REJECTED, rejectionReason: REJECTION },
};

/**
 * What searchPosts finds: words shared by several posts (graphql, sqlite), a title word also in
 * other posts' content (world), a title word in no content (third), markup to escape, a content
 * longer than a snippet, and a draft that matches but must never be found. Posts not listed
 * have `<title>: the content.`
 */
const CONTENTS: Record<string, string> = {
  [P1]: 'Hello world: my first post. It is about GraphQL, its resolvers and a little SQLite.',
  [P2]: 'Second thoughts on GraphQL: queries are easy, pagination with cursors is harder.',
  [P3]: 'Admin notes on moderation: <script>alert("x")</script> & other markup stays escaped.',
  [P4]: 'Reading list: "GraphQL in Action", SQLite internals, and a world atlas.',
  [P5]:
    'Lucky at last. ' +
    'A long walk through the world of search: tokens, prefixes, phrases and ranks, ' +
    'then snippets that show the words around a match, cut to about two dozen words, ' +
    'with the matched words marked, and the rest of this long content left out of the snippet.',
  [D1]: 'Bob draft: secret GraphQL plans about the world.',
};

/** Tags of each post, in their order; D1's `secret-plans` is on a draft only. */
const TAGS: Record<string, string[]> = {
  [P1]: ['graphql', 'intro'],
  [P2]: ['graphql', 'thoughts'],
  [P3]: ['admin'],
  [P4]: ['reading', 'graphql', 'sqlite'],
  [P5]: ['sqlite', 'search'],
  [D1]: ['secret-plans', 'graphql'],
};

/** Bookmarks: [user, post]; Cyd's of D1 is of a draft now, so it stays out of myBookmarks. */
const BOOKMARKS: [string, string][] = [
  [BOB, P4],
  [BOB, P3],
  [CYD, P1],
  [CYD, D1],
  [BOB, P6],
];

/** Notifications: [id, recipient, actor, kind, post, read]. */
const NOTIFICATIONS: [string, string, string, string, string | null, boolean][] = [
  [N1, BOB, CYD, 'FOLLOWED', null, true],
  [N2, BOB, CYD, 'POST_LIKED', P1, true],
  [N3, BOB, ADA, 'POST_LIKED', P1, false],
  [N4, BOB, CYD, 'POST_COMMENTED', P1, false],
  [N5, BOB, DEE, 'FOLLOWED', null, false],
  [N6, BOB, ADA, 'POST_COMMENTED', D1, false],
  [N7, CYD, BOB, 'POST_LIKED', P4, false],
  [N8, CYD, BOB, 'FOLLOWEE_PUBLISHED', P5, false],
  [N9, DEE, BOB, 'FOLLOWEE_PUBLISHED', P5, true],
  [N10, ADA, CYD, 'FOLLOWED', null, false],
];

const COMMENTS: [string, string, string, string, number][] = [
  [C1, P1, CYD, 'First!', 20],
  [C2, P1, ADA, 'Welcome, Bob.', 21],
  [C3, P1, BOB, 'Thanks both.', 22],
  [C4, P2, CYD, 'Interesting.', 23],
  [C5, P5, DEE, 'Third comment.', 24],
];

const LIKES: [string, string][] = [
  [P1, CYD],
  [P1, ADA],
  [P2, CYD],
  [P4, BOB],
];

const FOLLOWS: [string, string][] = [
  [BOB, CYD],
  [CYD, BOB],
  [CYD, ADA],
  [DEE, BOB],
];

/** The tables in the order their rows may be deleted, and the columns that order a dump. */
export const TABLES: [table: string, orderBy: string][] = [
  // As WEBHOOK_TABLES (seed-webhooks.ts) has them: an attempt's id is random after its prefix.
  ['webhook_deliveries', 'webhook_id, event, attempt, created_at, id'],
  ['webhooks', 'id'],
  // Neither by id (a publication's notifications have ids that end in random bits) nor by time
  // first (two made in one request may share a millisecond or not), so that both instances list
  // the same rows in the same order and number their new ids alike.
  ['notifications', 'recipient_id, kind, actor_id, post_id, created_at, id'],
  // By id last: an account token's and a mail's are UUIDv7s made in order.
  ['account_tokens', 'user_id, purpose, id'],
  ['mail_outbox', 'recipient, kind, id'],
  ['moderation_log', 'action, target_type, target_id, actor_id, created_at'],
  ['reports', 'target_type, target_id, reporter_id'],
  ['moderation_items', 'target_type, target_id, status, created_at'],
  ['bookmarks', 'user_id, post_id'],
  ['post_tags', 'post_id, position'],
  ['follows', 'follower_id, followee_id'],
  ['likes', 'post_id, user_id'],
  ['comment_likes', 'comment_id, user_id'],
  ['comments', 'id'],
  ['post_slugs', 'slug'],
  ['posts', 'id'],
  // Empty once every upload has ended, as both instances' must be.
  ['image_uploads', 'id'],
  ['images', 'id'],
  ['users', 'id'],
];

/** The seed's password hash, made once: argon2 salts each hash, so both instances share this one. */
let passwordHash: Promise<string> | undefined;

export function seedPasswordHash(): Promise<string> {
  passwordHash ??= argon2.hash(PASSWORD, {
    type: argon2.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
  });
  return passwordHash;
}

/** Empties the blog's tables and writes the seed, in one transaction. */
export async function resetToSeed(dataSource: DataSource): Promise<void> {
  const hash = await seedPasswordHash();
  await dataSource.transaction(async (manager) => {
    for (const [table] of TABLES) await manager.query(`DELETE FROM ${table}`);
    await manager.insert(
      User,
      USERS.map((u) => ({
        id: u.id,
        name: u.name,
        email: `${u.handle}@example.com`,
        handle: u.handle,
        avatar: u.handle === 'bob' ? 'https://example.com/bob.png' : null,
        passwordHash: hash,
        role: u.role,
        tokenVersion: 0,
        emailVerified: u.handle === 'ada',
        createdAt: at(u.day),
        updatedAt: at(u.day),
      })),
    );
    const slugs = new Set<string>();
    const posts = POSTS.map(([postId, authorId, title, day, published]) => {
      const content = CONTENTS[postId] ?? `${title}: the content.`;
      const rendered = renderPostContent(content);
      let slug = slugOfTitle(title);
      for (let n = 2; slugs.has(slug); n++) slug = `${slugOfTitle(title)}-${n}`;
      slugs.add(slug);
      return {
        id: postId,
        authorId,
        title,
        content,
        createdAt: at(day),
        updatedAt: at(day, 1),
        publishedAt: published ? at(day, 2) : null,
        slug,
        excerpt: excerptOf(rendered.text),
        wordCount: rendered.wordCount,
        renderedHtml: rendered.html,
        renderedText: rendered.text,
        tocJson: JSON.stringify(rendered.toc),
        ...REVIEWS[postId],
      };
    });
    await manager.insert(Post, posts);
    await manager.insert(
      'PostSlug',
      posts.map(({ slug, id, createdAt }) => ({ slug, postId: id, createdAt })),
    );
    await manager.insert(
      Comment,
      COMMENTS.map(([commentId, postId, authorId, text, day]) => ({
        id: commentId,
        postId,
        authorId,
        text,
        textHtml: renderCommentText(text).html,
        createdAt: at(day),
      })),
    );
    await manager.insert(
      Like,
      LIKES.map(([postId, userId], i) => ({ postId, userId, createdAt: at(25, i) })),
    );
    await manager.insert(
      Follow,
      FOLLOWS.map(([followerId, followeeId], i) => ({
        followerId,
        followeeId,
        createdAt: at(26, i),
      })),
    );
    await manager.insert(
      'PostTag',
      Object.entries(TAGS).flatMap(([postId, slugs]) =>
        slugs.map((slug, position) => ({ postId, slug, position })),
      ),
    );
    await manager.insert(
      'Bookmark',
      BOOKMARKS.map(([userId, postId], i) => ({ userId, postId, createdAt: at(27, i) })),
    );
    await manager.insert(
      'Notification',
      NOTIFICATIONS.map(([notificationId, recipientId, actorId, kind, postId, read], i) => ({
        id: notificationId,
        recipientId,
        actorId,
        kind,
        postId,
        createdAt: at(28, i),
        readAt: read ? at(29, i) : null,
      })),
    );
    await seedModeration(manager);
    await seedImages(manager);
    await seedWebhooks(manager);
  });
}

/** Every row of the blog's tables, as the driver returns them, in a fixed order. */
export type Dump = Record<string, Record<string, unknown>[]>;

export async function dumpTables(dataSource: DataSource): Promise<Dump> {
  const dump: Dump = {};
  for (const [table, orderBy] of [...TABLES].reverse()) {
    dump[table] = await dataSource.query(`SELECT * FROM ${table} ORDER BY ${orderBy}`);
  }
  return dump;
}

const encode = (text: string) => Buffer.from(text).toString('base64url');

/** The myBookmarks cursor of a seeded bookmark. */
export function bookmarkCursorOf(userId: string, postId: string): string {
  const i = BOOKMARKS.findIndex(([user, post]) => user === userId && post === postId);
  if (i < 0) throw new Error(`${userId} has no bookmark of ${postId} in the seed`);
  return encode(`bookmark:${at(27, i).getTime()}:${postId}`);
}

/** The notifications cursor of a seeded notification. */
export function notificationCursorOf(notificationId: string): string {
  return encode(`notification:${notificationId}`);
}

/** The popularTags cursor of a tag of the seed: its count of published posts, and its slug. */
export function tagCursorOf(slug: string): string {
  const published = POSTS.filter(([postId, , , , live]) => live && TAGS[postId]?.includes(slug));
  if (!published.length) throw new Error(`No published post of the seed has the tag ${slug}`);
  return encode(`tag:${published.length}:${slug}`);
}

/** A searchPosts cursor that goes on after a seeded published post at `rank`. */
export function searchCursorOf(postId: string, rank: number): string {
  return encode(`search:${rank}:${publishedAtOf(postId).getTime()}:${postId}`);
}

function publishedAtOf(postId: string): Date {
  const post = POSTS.find(([id]) => id === postId);
  if (!post?.[4]) throw new Error(`${postId} is not a published post of the seed`);
  return at(post[3], 2);
}

/** The Relay cursor of a seeded published post, as postsConnection makes it. */
export function cursorOf(postId: string): string {
  return encode(`post:${publishedAtOf(postId).getTime()}:${postId}`);
}

/** The postsAwaitingReview cursor of a seeded post awaiting review. */
export function reviewCursorOf(postId: string): string {
  const requestedAt = REVIEWS[postId]?.reviewRequestedAt;
  if (!requestedAt) throw new Error(`${postId} does not await review in the seed`);
  return encode(`review:${requestedAt.getTime()}:${postId}`);
}
