import { setTimeout as sleep } from 'node:timers/promises';

import { Sql } from '../../src/blog/common/sql';
import { DeferPostSearchIndexing1765000900000 } from '../../src/blog/migrations/1765000900000-defer-post-search-indexing';
import { PostSearchIndex } from '../../src/blog/posts/post-search-index';
import { testDatabase } from '../helpers/databases';
import { CREATE_POST, DELETE_POST, PUBLISH_POST, UPDATE_POST } from '../helpers/documents';
import { TestApp, TestUser } from '../helpers/test-app';

/**
 * SQLite's search index written in batches (PostSearchIndex, migration 1765000900000) against
 * the plain path it replaces, each post indexed in its own transaction by the triggers: the same
 * writes (through the API and by another client, in SQL) go to both services, and after each
 * step the same searches must answer the same pages, rank for rank and snippet for snippet.
 *
 * The plain path's triggers read a post's Markdown, as before the migration 1765006000000, and
 * the batches its rendered text: the script's contents are plain text, whose rendered text has
 * the same words, so that both index the same.
 */
const SEARCH = `query ($query: String!, $first: Int, $after: String, $tags: [String!]) {
  searchPosts(query: $query, first: $first, after: $after, tags: $tags) {
    edges { rank snippet cursor node { title content tags } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface SearchPage {
  edges: {
    rank: number;
    snippet: string;
    cursor: string;
    node: { title: string; content: string; tags: string[] };
  }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Searches that read every part of the index: words, prefixes, phrases, exclusions, tags. */
const QUERIES: { query: string; tags?: string[] }[] = [
  { query: 'ocelot' },
  { query: 'oce' },
  { query: 'oc' },
  { query: 'ocelot ' },
  { query: '"second ocelot"' },
  { query: 'ocelot -draft' },
  { query: 'fennec finch' },
  { query: 'graph' },
  { query: 'cafe' },
  { query: 'the' },
  { query: 'the', tags: ['wild'] },
  { query: 'marmot' },
];

/** One service of the pair, with the ids its posts got, by the script's names. */
interface Side {
  app: TestApp;
  writers: TestUser[];
  ids: Map<string, string>;
}

type Step =
  | { create: string; title: string; content: string; publish?: boolean; tags?: string[] }
  | { update: string; title?: string; content?: string }
  | { publish: string }
  | { remove: string }
  | { insertInSql: string; title: string; content: string }
  | { updateInSql: string; content: string }
  | { removeInSql: string };

/**
 * The script: new posts, edits, folded text, drafts, deletions, and another client's SQL. Each
 * group of steps runs without a search between them, so that a post changes or goes while it
 * may still wait for its entry in the index. `p` names the posts of one run of it.
 */
const script = (p: string): Step[][] => [
  [{ create: `${p}a`, title: 'An ocelot', content: 'The ocelot sleeps by day.' }],
  [
    {
      create: `${p}b`,
      title: 'Second ocelot',
      content: 'A second ocelot, and the first one again.',
    },
  ],
  [{ create: `${p}c`, title: 'Draft', content: 'An ocelot draft, not out yet.', publish: false }],
  [
    {
      create: `${p}d`,
      title: 'Ｇｒａｐｈ notes',
      content: 'The ｆｅｎｎｅｃ and the ﬁnch, by a café.',
      tags: ['wild'],
    },
  ],
  [{ update: `${p}a`, content: 'The ocelot hunts by night; the ocelot sleeps by day.' }],
  [{ publish: `${p}c` }],
  [{ update: `${p}d`, title: 'Graph notes, plain' }],
  [
    {
      insertInSql: `${p}e`,
      title: 'Written in SQL',
      content: 'An ocelot and a marmot, from the shell.',
    },
  ],
  [
    {
      create: `${p}f`,
      title: 'Wild cafe',
      content: 'The cafe of the wild ocelot.',
      tags: ['wild'],
    },
  ],
  [{ updateInSql: `${p}b`, content: 'The second ocelot became a ｍａｒｍｏｔ.' }],
  [{ remove: `${p}a` }],
  [{ removeInSql: `${p}e` }],
  [{ create: `${p}g`, title: 'Many', content: 'ocelot '.repeat(40).trim() }],
  [{ update: `${p}g`, title: 'Many ocelots', content: 'Only one ocelot now.' }],
  // Changed or gone before a search: the index must not forget what it never held.
  [
    { create: `${p}h`, title: 'Short-lived', content: 'An ocelot for a moment.' },
    { remove: `${p}h` },
  ],
  [
    { create: `${p}i`, title: 'Ｒｅｗｒｉｔｔｅｎ', content: 'The ﬁrst ocelot text.' },
    { update: `${p}i`, title: 'Ｒｅｗｒｉｔｔｅｎ twice', content: 'A ｆｅｎｎｅｃ now.' },
  ],
  [
    { create: `${p}j`, title: 'Quick draft', content: 'A marmot draft.', publish: false },
    { publish: `${p}j` },
    { update: `${p}j`, content: 'A marmot, published and edited.' },
  ],
  [
    { insertInSql: `${p}k`, title: 'Shell twice', content: 'A marmot from the shell.' },
    { updateInSql: `${p}k`, content: 'A ｆｅｎｎｅｃ from the shell.' },
  ],
  [
    { insertInSql: `${p}l`, title: 'Shell gone', content: 'An ocelot from the shell.' },
    { removeInSql: `${p}l` },
  ],
];

/** A post's time as the service stores it on SQLite, for the rows another client writes. */
const storedTime = () => new Date().toISOString().replace('T', ' ').replace('Z', '');

/** The writer of the post the script names `key`, who may change it through the API. */
async function ownerOf({ app, ids, writers }: Side, key: string): Promise<TestUser> {
  const [{ author_id: authorId }] = await app.dataSource.query(
    'SELECT author_id FROM posts WHERE id = ?',
    [ids.get(key)],
  );
  return writers.find((writer) => writer.user.id === authorId) as TestUser;
}

async function apply(side: Side, step: Step, index: number): Promise<void> {
  const { app, ids } = side;
  const writer = side.writers[index % side.writers.length];
  if ('create' in step) {
    const { title, content, publish, tags } = step;
    const { createPost } = await app.data<{ createPost: { id: string } }>(
      CREATE_POST,
      { input: { title, content, publish, tags } },
      writer.token,
    );
    ids.set(step.create, createPost.id);
  } else if ('update' in step) {
    const input = { title: step.title, content: step.content };
    const author = await ownerOf(side, step.update);
    await app.data(UPDATE_POST, { id: ids.get(step.update), input }, author.token);
  } else if ('publish' in step || 'remove' in step) {
    const key = 'publish' in step ? step.publish : step.remove;
    const author = await ownerOf(side, key);
    await app.data(
      'publish' in step ? PUBLISH_POST : DELETE_POST,
      { id: ids.get(key) },
      author.token,
    );
  } else if ('insertInSql' in step) {
    const id = `00000000-0000-7000-8000-${String(index).padStart(12, '0')}`;
    const at = storedTime();
    await app.dataSource.query(
      'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, step.title, step.content, writer.user.id, at, at, at],
    );
    ids.set(step.insertInSql, id);
  } else if ('updateInSql' in step) {
    // Its Markdown and its text, as another client must (see the migration 1765006000000).
    await app.dataSource.query('UPDATE posts SET content = ?, content_text = ? WHERE id = ?', [
      step.content,
      step.content,
      ids.get(step.updateInSql),
    ]);
  } else {
    await app.dataSource.query('DELETE FROM posts WHERE id = ?', [ids.get(step.removeInSql)]);
  }
}

/** Every page of each search of QUERIES, two posts a page, without the cursors (ids, times). */
async function answers(side: Side): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const { query, tags } of QUERIES) {
    let after: string | null = null;
    do {
      const { searchPosts }: { searchPosts: SearchPage } = await side.app.data(SEARCH, {
        query,
        tags,
        first: 2,
        after,
      });
      all.push({
        query,
        tags,
        edges: searchPosts.edges.map(({ rank, snippet, node }) => ({
          rank,
          snippet,
          title: node.title,
          content: node.content,
          tags: node.tags,
        })),
        hasNextPage: searchPosts.pageInfo.hasNextPage,
      });
      after = searchPosts.pageInfo.hasNextPage ? searchPosts.pageInfo.endCursor : null;
    } while (after);
  }
  return all;
}

const unindexed = async (app: TestApp) =>
  Number(
    (await app.dataSource.query('SELECT count(*) AS count FROM post_search WHERE indexed = 0'))[0]
      .count,
  );

const expectIndexInStep = (app: TestApp) =>
  app.dataSource.query(
    "INSERT INTO post_search_fts (post_search_fts, rank) VALUES ('integrity-check', 1)",
  );

async function startSide(): Promise<Side> {
  const app = await TestApp.start();
  const writers = [await app.signUp(), await app.signUp()];
  return { app, writers, ids: new Map() };
}

if (testDatabase() === 'sqlite') {
  describe('Differential: SQLite search index written in batches against each post on its own (e2e)', () => {
    let batched: Side;
    let plain: Side;

    beforeAll(async () => {
      batched = await startSide();
      plain = await startSide();
      // The plain path: the triggers as they were before the migration, and no batches.
      const index = plain.app.app.get(PostSearchIndex, { strict: false });
      await index.beforeApplicationShutdown();
      jest.spyOn(index, 'reading').mockImplementation((read) => read(plain.app.app.get(Sql)));
      const runner = plain.app.dataSource.createQueryRunner();
      try {
        await new DeferPostSearchIndexing1765000900000().down(runner);
      } finally {
        await runner.release();
      }
    });
    afterAll(async () => {
      await batched?.app.close();
      await plain?.app.close();
    });

    let stepsApplied = 0;

    /** Runs the script on both, and compares every search after each group of steps. */
    async function compare(p: string): Promise<number> {
      let leftForSearch = 0;
      for (const steps of script(p)) {
        for (const step of steps) {
          await apply(batched, step, stepsApplied);
          await apply(plain, step, stepsApplied);
          stepsApplied += 1;
          // Posts are a few milliseconds apart, so that both order ties by time alike.
          await sleep(3);
        }
        // Left for the search itself to index, when the batch has not run yet.
        leftForSearch += await unindexed(batched.app);
        expect({ steps, answers: await answers(batched) }).toEqual({
          steps,
          answers: await answers(plain),
        });
        await expectIndexInStep(batched.app);
        await expectIndexInStep(plain.app);
      }
      return leftForSearch;
    }

    it('should answer every search of every step exactly as the plain path', async () => {
      await compare('1');
    });

    it('should answer the same when every new post waits for the next search', async () => {
      // No batch after a write: each search indexes what the steps before it left.
      const index = batched.app.app.get(PostSearchIndex, { strict: false });
      const written = jest.spyOn(index, 'written').mockImplementation(() => {});
      try {
        expect(await compare('2')).toBeGreaterThan(0);
      } finally {
        written.mockRestore();
      }
    });

    it('should index in the background what no search asked for, and leave nothing behind', async () => {
      await apply(batched, { create: 'x', title: 'Unread', content: 'A quiet ocelot.' }, 0);
      await batched.app.fannedOut();
      expect(await unindexed(batched.app)).toBe(0);
      await expectIndexInStep(batched.app);
    });
  });
} else {
  describe('PostgreSQL search index (e2e)', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(() => t.close());

    it('should index each post in its own transaction, with no batch and no transaction to search', async () => {
      const writer = await t.signUp();
      await t.data(CREATE_POST, { input: { title: 'At once', content: 'A tapir.' } }, writer.token);
      const [{ count }] = await t.dataSource.query(
        "SELECT count(*) AS count FROM information_schema.columns WHERE table_name = 'post_search' " +
          "AND column_name = 'indexed'",
      );
      expect(Number(count)).toBe(0);
      await t.fannedOut();
      const before = t.statements.statements.length;
      const { searchPosts } = await t.data(SEARCH, { query: 'tapir' });
      expect(searchPosts.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual([
        'At once',
      ]);
      // The page and its posts' tags: no transaction around them, and nothing indexed first.
      expect(t.statements.statements.slice(before)).toEqual([
        expect.stringMatching(/FROM post_search s WHERE/),
        expect.stringMatching(/FROM post_tags pt/),
      ]);
    });
  });
}
