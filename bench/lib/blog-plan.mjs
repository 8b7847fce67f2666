import { createRequire } from 'node:module';

import { createRandom } from './prng.mjs';
import { paragraphs, personName, shortText, title } from './text.mjs';

const require = createRequire(import.meta.url);
const { v7: uuidv7 } = require('uuid');

/** The blog of the issue: 10k users, 100k posts, 300k comments, 1M likes, 50k follows. */
export const FULL_SIZES = Object.freeze({
  users: 10_000,
  posts: 100_000,
  comments: 300_000,
  likes: 1_000_000,
  follows: 50_000,
});

/** Every size multiplied by `factor` (the proportions of the blog stay the same). */
export function scaleSizes(sizes, factor) {
  const scaled = {};
  for (const [table, count] of Object.entries(sizes)) {
    scaled[table] = Math.max(table === 'users' ? 30 : 1, Math.round(count * factor));
  }
  return scaled;
}

/** How many users the bench viewer follows: bounded, like a real reader, whatever the blog size. */
export const VIEWER_FOLLOWS = 50;

/** The comments P1 asks for (`comments(first: 10)`), and so the least its post should have. */
export const P1_COMMENTS = 10;
/** The tags P1's post has at least; other posts have 0 to 3. */
export const P1_TAGS = 3;

/** The tags of the blog's posts (slugs), the most used first. */
const TAGS = (
  'graphql sql performance caching databases testing node typescript postgres sqlite ' +
  'architecture api design devops observability security release tooling frontend backend ' +
  'career notes books travel music cooking garden cycling photography weekend'
).split(' ');

const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2025, 0, 1);
const USERS_SPAN = 60 * DAY;
const POSTS_SPAN = 365 * DAY;

/**
 * Plans a deterministic blog: the same sizes and seed always give the same rows (ids included),
 * so the SQLite and PostgreSQL copies hold identical data and the same fixtures.
 *
 * Shape: early users write most (author = users * u^2), a handful of posts are drafts, some
 * posts are published days after they were written, comments and likes go mostly to a few
 * popular posts, the bench viewer follows {@link VIEWER_FOLLOWS} users, the bench writer is the
 * newest user and is followed by no one the reads look at. Posts have 0 to 3 tags; the post of
 * P1, a popular one outside the feed, has {@link P1_TAGS} and its content has headings.
 *
 * Each table is produced by a generator of row objects with times in epoch milliseconds.
 * `text` writes the posts' titles and contents (the search round gives its own).
 */
export function planBlog(sizes, seed, text = { title, paragraphs }) {
  const nUsers = sizes.users;
  const nPosts = sizes.posts;
  const id = (msecs, rng) => uuidv7({ msecs, random: rng.bytes(16) });

  // Users, oldest first; ids follow creation time.
  const userIds = new Array(nUsers);
  const userTimes = new Float64Array(nUsers);
  const idRandom = createRandom(`${seed}:user-ids`);
  for (let i = 0; i < nUsers; i++) {
    userTimes[i] = START + Math.floor((i * USERS_SPAN) / nUsers) + i;
    userIds[i] = id(userTimes[i], idRandom);
  }
  const viewer = Math.floor(nUsers / 2);
  const writer = nUsers - 1;

  // Posts, oldest first; a few drafts, a few published later than written.
  const postIds = new Array(nPosts);
  const postTimes = new Float64Array(nPosts);
  const publishedTimes = new Float64Array(nPosts); // 0 = draft
  const postAuthors = new Int32Array(nPosts);
  const postRandom = createRandom(`${seed}:posts`);
  const draftEvery = Math.max(10, Math.floor(nPosts / Math.max(3, Math.round(nPosts * 0.002))));
  for (let i = 0; i < nPosts; i++) {
    postTimes[i] = START + USERS_SPAN + Math.floor((i * POSTS_SPAN) / nPosts) + i;
    postIds[i] = id(postTimes[i], postRandom);
    postAuthors[i] = Math.min(nUsers - 2, Math.floor(nUsers * postRandom.next() ** 2));
    const draft = i % draftEvery === draftEvery - 1;
    const delay = postRandom.chance(0.02) ? postRandom.between(1, 5 * 24 * 60) * 60_000 : 0;
    publishedTimes[i] = draft ? 0 : postTimes[i] + delay;
  }

  // Who the viewer follows: distinct users, never the viewer nor the writer.
  const followRandom = createRandom(`${seed}:follows`);
  const followees = new Set();
  const wanted = Math.min(VIEWER_FOLLOWS, nUsers - 2);
  for (let guard = 0; followees.size < wanted && guard < wanted * 100; guard++) {
    const user = followRandom.int(nUsers);
    if (user !== viewer && user !== writer) followees.add(user);
  }

  // Popularity of posts for comments and likes (heavy-tailed; drafts get nothing).
  const weights = new Float64Array(nPosts);
  const cumulative = new Float64Array(nPosts);
  const popularity = createRandom(`${seed}:popularity`);
  let total = 0;
  for (let i = 0; i < nPosts; i++) {
    weights[i] = publishedTimes[i] ? (1 / (1 - popularity.next() * 0.999)) ** 0.9 : 0;
    total += weights[i];
    cumulative[i] = total;
  }
  const popularPost = (rng) => {
    const target = rng.next() * total;
    let lo = 0;
    let hi = nPosts - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const publishedFrom = (start, accept = () => true) => {
    for (let k = 0; k < nPosts; k++) {
      const i = (start + k) % nPosts;
      if (publishedTimes[i] && accept(i)) return i;
    }
    throw new Error('The blog has no published post');
  };

  const q1Post = publishedFrom(Math.floor(nPosts * 0.5));
  const q4Post = publishedFrom(Math.floor(nPosts * 0.25), (i) => i !== q1Post);
  const q4ExtraComments = Math.min(30, sizes.comments);
  const notInFeed = (i) =>
    postAuthors[i] !== viewer && !followees.has(postAuthors[i]) && i !== q1Post && i !== q4Post;
  const w2Post = publishedFrom(Math.floor(nPosts * 0.75), notInFeed);
  const p1Post = popularOutsideTheFeed(
    nPosts,
    Math.floor(nPosts * 0.6),
    (i) => publishedTimes[i] && notInFeed(i) && i !== w2Post,
    (i) => (sizes.comments * weights[i]) / total,
  );

  const fixtures = {
    seed: String(seed),
    sizes: { ...sizes },
    viewerId: userIds[viewer],
    writerId: userIds[writer],
    viewerFollows: followees.size,
    q1PostId: postIds[q1Post],
    q4PostId: postIds[q4Post],
    w2PostId: postIds[w2Post],
    p1PostId: postIds[p1Post],
    drafts: publishedTimes.reduce((n, t) => n + (t ? 0 : 1), 0),
  };

  function* users() {
    const rng = createRandom(`${seed}:user-rows`);
    for (let i = 0; i < nUsers; i++) {
      const name = i === viewer ? 'Bench Viewer' : i === writer ? 'Bench Writer' : personName(rng);
      const handle = `${name
        .toLowerCase()
        .replace(/[^a-z]+/g, '_')
        .slice(0, 20)}_${i}`;
      yield {
        id: userIds[i],
        name,
        email: `${handle}@example.com`,
        handle,
        avatar: rng.chance(0.7) ? `https://avatars.example.com/u/${i}.png` : null,
        passwordHash: 'not-a-password-hash:benchmark-users-cannot-log-in',
        createdAt: userTimes[i],
      };
    }
  }

  function* posts() {
    const rng = createRandom(`${seed}:post-rows`);
    for (let i = 0; i < nPosts; i++) {
      const postTitle = text.title(rng);
      const content = text.paragraphs(rng, rng.between(200, 2000));
      yield {
        id: postIds[i],
        title: postTitle,
        content:
          i === p1Post ? withHeadings(content, createRandom(`${seed}:p1-headings`), text) : content,
        authorId: userIds[postAuthors[i]],
        createdAt: postTimes[i],
        publishedAt: publishedTimes[i] || null,
      };
    }
  }

  function* comments() {
    const rng = createRandom(`${seed}:comment-rows`);
    for (let n = 0; n < sizes.comments; n++) {
      const post = n < q4ExtraComments ? q4Post : popularPost(rng);
      const time = publishedTimes[post] + rng.between(1, 30 * 24 * 60) * 60_000 + n;
      yield {
        id: id(time, rng),
        postId: postIds[post],
        authorId: userIds[rng.int(nUsers)],
        text: shortText(rng, 20, 300),
        createdAt: time,
      };
    }
  }

  function* likes() {
    const rng = createRandom(`${seed}:like-rows`);
    const cap = Math.max(1, Math.floor(nUsers / 2));
    const counts = new Int32Array(nPosts);
    let assigned = 0;
    for (let i = 0; i < nPosts; i++) {
      counts[i] = Math.min(cap, Math.floor((sizes.likes * weights[i]) / total));
      assigned += counts[i];
    }
    for (let guard = 0; assigned < sizes.likes && guard < sizes.likes * 20; guard++) {
      const i = popularPost(rng);
      if (counts[i] < cap) {
        counts[i]++;
        assigned++;
      }
    }
    for (let i = 0; i < nPosts; i++) {
      const likers = new Set();
      for (let guard = 0; likers.size < counts[i] && guard < counts[i] * 50; guard++) {
        likers.add(rng.int(nUsers));
      }
      for (const user of likers) {
        yield {
          postId: postIds[i],
          userId: userIds[user],
          createdAt: publishedTimes[i] + rng.between(1, 60 * 24 * 60) * 60_000,
        };
      }
    }
  }

  function* follows() {
    const rng = createRandom(`${seed}:follow-rows`);
    const seen = new Set();
    const time = () => START + USERS_SPAN + rng.int(POSTS_SPAN);
    for (const user of followees) {
      seen.add(viewer * nUsers + user);
      yield { followerId: userIds[viewer], followeeId: userIds[user], createdAt: time() };
    }
    for (let guard = 0; seen.size < sizes.follows && guard < sizes.follows * 20; guard++) {
      const follower = rng.int(nUsers);
      const followee = Math.floor(nUsers * rng.next() ** 2);
      const key = follower * nUsers + followee;
      if (follower === viewer || follower === followee || seen.has(key)) continue;
      seen.add(key);
      yield { followerId: userIds[follower], followeeId: userIds[followee], createdAt: time() };
    }
  }

  /** Each post's tags, in their order: 0 to 3 (P1's post {@link P1_TAGS}), the first tags the most used. */
  function* postTags() {
    const rng = createRandom(`${seed}:tag-rows`);
    for (let i = 0; i < nPosts; i++) {
      const drawn = rng.int(4);
      const wanted = i === p1Post ? Math.max(drawn, P1_TAGS) : drawn;
      const slugs = new Set();
      for (let guard = 0; slugs.size < wanted && guard < 50; guard++) {
        slugs.add(TAGS[Math.floor(TAGS.length * rng.next() ** 2)]);
      }
      let position = 0;
      for (const slug of slugs) yield { postId: postIds[i], slug, position: position++ };
    }
  }

  return { fixtures, tables: { users, posts, postTags, comments, likes, follows } };
}

/**
 * The post of P1: the first post from `start` on (wrapping) that `eligible` accepts and that
 * should have at least three times {@link P1_COMMENTS} comments (`expectedComments`, from its
 * popularity), so that it has {@link P1_COMMENTS} whatever the draws; on a blog too small for
 * that, the eligible post with the most.
 */
function popularOutsideTheFeed(nPosts, start, eligible, expectedComments) {
  let best = -1;
  for (let k = 0; k < nPosts; k++) {
    const i = (start + k) % nPosts;
    if (!eligible(i)) continue;
    if (expectedComments(i) >= 3 * P1_COMMENTS) return i;
    if (best < 0 || expectedComments(i) > expectedComments(best)) best = i;
  }
  if (best < 0) throw new Error('The blog has no published post outside the feed');
  return best;
}

/**
 * `content` with a Markdown heading before each paragraph (level 2, then 3 every other one),
 * its words drawn by `text.title`: the post of P1 gets a table of contents, and its HTML headings
 * with ids, as a long post has. Its own random stream, so the other rows stay the same.
 */
function withHeadings(content, rng, text) {
  return content
    .split('\n\n')
    .map((paragraph, i) => `${i % 2 ? '###' : '##'} ${text.title(rng)}\n\n${paragraph}`)
    .join('\n\n');
}
