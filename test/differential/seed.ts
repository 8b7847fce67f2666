import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';

import { Comment, Follow, Like, Post, User } from '../../src/blog';

/**
 * The data every document of the differential corpus starts from, with fixed ids and timestamps
 * so that both instances hold the same rows and the corpus can name them.
 */
const id = (n: string) => `01920000-0000-7000-8000-${n.padStart(12, '0')}`;

/** Users: Ada is an admin; Bob, Cyd and Dee are plain users. Every password is PASSWORD. */
export const ADA = id('a1');
export const BOB = id('b2');
export const CYD = id('c3');
export const DEE = id('d4');
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

/** Comments: C1-C3 on P1, C4 on P2, C5 on P5. */
export const C1 = id('c01');
export const C2 = id('c02');
export const C3 = id('c03');
export const C4 = id('c04');
export const C5 = id('c05');

/** An id that names nothing. */
export const MISSING = '01900000-0000-7000-8000-000000000000';

/** Seed timestamps lie in 2025; anything the service writes during the run is later. */
const at = (day: number, second = 0) =>
  new Date(Date.UTC(2025, 0, day, 12, 0, second, day * 7 + second));

const USERS = [
  { id: ADA, name: 'Ada Admin', handle: 'ada', role: 'admin' as const, day: 1 },
  { id: BOB, name: 'Bob Writer', handle: 'bob', role: 'user' as const, day: 2 },
  { id: CYD, name: 'Cyd Reader', handle: 'cyd', role: 'user' as const, day: 3 },
  { id: DEE, name: 'Dee Quiet', handle: 'dee', role: 'user' as const, day: 4 },
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
  ['follows', 'follower_id, followee_id'],
  ['likes', 'post_id, user_id'],
  ['comments', 'id'],
  ['posts', 'id'],
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
        createdAt: at(u.day),
        updatedAt: at(u.day),
      })),
    );
    await manager.insert(
      Post,
      POSTS.map(([postId, authorId, title, day, published]) => ({
        id: postId,
        authorId,
        title,
        content: `${title}: the content.`,
        createdAt: at(day),
        updatedAt: at(day, 1),
        publishedAt: published ? at(day, 2) : null,
      })),
    );
    await manager.insert(
      Comment,
      COMMENTS.map(([commentId, postId, authorId, text, day]) => ({
        id: commentId,
        postId,
        authorId,
        text,
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

/** The Relay cursor of a seeded published post, as postsConnection makes it. */
export function cursorOf(postId: string): string {
  const post = POSTS.find(([id]) => id === postId);
  if (!post?.[4]) throw new Error(`${postId} is not a published post of the seed`);
  return Buffer.from(`post:${at(post[3], 2).getTime()}:${postId}`).toString('base64url');
}
