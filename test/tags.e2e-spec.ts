import { refuseDeletes, testDatabase } from './helpers/databases';
import { DELETE_POST, PUBLISH_POST, UPDATE_POST } from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';
import { translate } from '../src/blog/common/sql';
import { CreateTagCounts1765001000000 } from '../src/blog/migrations/1765001000000-create-tag-counts';
import { encodeTagCursor } from '../src/blog/tags/tag-cursor';
import { tagsSql } from '../src/blog/tags/tags.sql';

const CREATE = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id tags publishedAt }
}`;
const UPDATE = `mutation ($id: ID!, $input: UpdatePostInput!) {
  updatePost(id: $id, input: $input) { id title tags }
}`;
const TAGS_OF = `query ($id: ID!) { post(id: $id) { tags } }`;
const POSTS = `query ($tags: [String!], $authorId: ID, $first: Int) {
  posts(tags: $tags, authorId: $authorId, first: $first) { id }
}`;
const POSTS_CONNECTION = `query ($tags: [String!], $authorId: ID, $first: Int, $after: String) {
  postsConnection(tags: $tags, authorId: $authorId, first: $first, after: $after) {
    totalCount
    edges { node { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const TAG = `query ($slug: String!, $first: Int, $after: String) {
  tag(slug: $slug) {
    slug
    postsCount
    posts(first: $first, after: $after) {
      totalCount
      edges { cursor node { id tags } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const POPULAR = `query ($first: Int, $after: String) {
  popularTags(first: $first, after: $after) {
    edges { cursor node { slug postsCount } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const errorOf = (response: GraphQLResponse) => response.errors?.[0];

interface TagPage {
  slug: string;
  postsCount: number;
  posts: {
    totalCount: number;
    edges: { cursor: string; node: { id: string; tags: string[] } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

describe('Tags (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    other = await t.signUp({ name: 'Other' });
  });
  afterAll(() => t.close());

  let count = 0;
  /** Creates a post with `tags`; published unless `publish` is false. */
  const createPost = async (tags: string[] | undefined, by = author, publish = true) => {
    count += 1;
    const input = { title: `Post ${count}`, content: 'Body', publish, tags };
    return (await t.data(CREATE, { input }, by.token)).createPost as {
      id: string;
      tags: string[];
    };
  };
  const tagsOf = async (id: string, by = author): Promise<string[]> =>
    (await t.data(TAGS_OF, { id }, by.token)).post.tags;
  const postIds = async (variables: Record<string, unknown>) =>
    (await t.data(POSTS, { first: 100, ...variables })).posts.map((p: { id: string }) => p.id);
  const tag = async (slug: string, variables: Record<string, unknown> = {}, token?: string) =>
    (await t.data(TAG, { slug, ...variables }, token)).tag as TagPage | null;

  describe('normalisation', () => {
    it('should store lower-case slugs in their first order, each once', async () => {
      const post = await createPost([
        'TypeScript',
        'Ｔｙｐｅｓｃｒｉｐｔ',
        ' Web Dev ',
        'web_dev',
        'C++ & Rust!',
      ]);
      expect(post.tags).toEqual(['typescript', 'web-dev', 'c-rust']);
      expect(await tagsOf(post.id)).toEqual(['typescript', 'web-dev', 'c-rust']);
    });

    it('should read a decomposed accent and its composed form as one tag', async () => {
      const decomposed = await createPost(['Cafe\u0301-Norm']);
      const composed = await createPost(['CAFÉ NORM']);
      expect(decomposed.tags).toEqual(['café-norm']);
      expect(composed.tags).toEqual(['café-norm']);
      expect(await postIds({ tags: ['cafe\u0301 norm'] })).toEqual([composed.id, decomposed.id]);
      expect((await tag('Café_Norm'))?.postsCount).toBe(2);
    });

    it('should keep letters of other scripts', async () => {
      const post = await createPost(['Ελληνικά', '日本語 タグ']);
      expect(post.tags).toEqual(['ελληνικά', '日本語-タグ']);
      expect((await tag('ΕΛΛΗΝΙΚΆ'))?.slug).toBe('ελληνικά');
    });

    it('should take the tags in the flat form of createPost too', async () => {
      const { createPost: post } = await t.data(
        `mutation ($tags: [String!]) {
          createPost(title: "Flat", content: "Body", tags: $tags) { id tags }
        }`,
        { tags: ['Flat Form', 'FLAT form'] },
        author.token,
      );
      expect(post.tags).toEqual(['flat-form']);
    });

    it('should answer no tags for a post created without them', async () => {
      expect((await createPost(undefined)).tags).toEqual([]);
      expect((await createPost([])).tags).toEqual([]);
    });
  });

  describe('limits', () => {
    const refusedCreate = async (tags: string[]) => {
      const before = (await t.data('{ myDrafts(first: 100) { id } }', {}, author.token)).myDrafts
        .length;
      const input = { title: 'Refused', content: 'Body', publish: false, tags };
      const error = errorOf(await t.gql(CREATE, { input }, author.token));
      const after = (await t.data('{ myDrafts(first: 100) { id } }', {}, author.token)).myDrafts
        .length;
      expect(after).toBe(before);
      return error;
    };

    it('should refuse a sixth distinct tag with BAD_USER_INPUT and create nothing', async () => {
      const error = await refusedCreate(['a1', 'b1', 'c1', 'd1', 'e1', 'f1']);
      expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.tags' });
      expect(error?.message).toMatch(/at most 5/i);
    });

    it('should take six tags that are five once normalised', async () => {
      const post = await createPost(['a1', 'b1', 'c1', 'd1', 'e1', 'A1']);
      expect(post.tags).toEqual(['a1', 'b1', 'c1', 'd1', 'e1']);
    });

    it('should refuse a tag with nothing left once normalised, naming it', async () => {
      const error = await refusedCreate(['fine', '?!?']);
      expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.tags' });
      expect(error?.message).toContain('"?!?"');
    });

    it('should refuse a tag longer than 64 characters', async () => {
      const error = await refusedCreate(['x'.repeat(65)]);
      expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(error?.message).toContain('longer than 64');
      expect(await createPost(['y'.repeat(64)])).toMatchObject({ tags: ['y'.repeat(64)] });
    });

    it('should refuse a huge list before reading it', async () => {
      const error = await refusedCreate(Array.from({ length: 1000 }, () => 'same'));
      expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('updatePost', () => {
    it('should keep the tags when tags is left out, replace them when given, and remove them with []', async () => {
      const { id } = await createPost(['keep-one', 'keep-two']);
      const update = async (input: Record<string, unknown>) =>
        (await t.data(UPDATE, { id, input }, author.token)).updatePost;

      expect(await update({ title: 'Renamed' })).toMatchObject({
        title: 'Renamed',
        tags: ['keep-one', 'keep-two'],
      });
      expect(await update({ tags: ['New Two', 'keep-one'] })).toMatchObject({
        title: 'Renamed',
        tags: ['new-two', 'keep-one'],
      });
      expect(await tagsOf(id)).toEqual(['new-two', 'keep-one']);
      expect(await update({ tags: [] })).toMatchObject({ tags: [] });
      expect(await tagsOf(id)).toEqual([]);
      expect(await tag('keep-two')).toBeNull();
    });

    it('should change neither title nor tags when the tags are refused', async () => {
      const { id } = await createPost(['unchanged']);
      const error = errorOf(
        await t.gql(
          UPDATE,
          { id, input: { title: 'Changed', tags: ['1', '2', '3', '4', '5', '6'] } },
          author.token,
        ),
      );
      expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(
        (await t.data('query ($id: ID!) { post(id: $id) { title tags } }', { id })).post,
      ).toEqual({ title: expect.stringMatching(/^Post /), tags: ['unchanged'] });
    });

    it('should write the title and the tags together or not at all', async () => {
      const { id } = await createPost(['together']);
      const restore = await refuseDeletes(t.dataSource, 'post_tags');
      try {
        const failed = await t.gql(
          UPDATE,
          { id, input: { title: 'Half done', tags: ['apart'] } },
          author.token,
        );
        expect(errorOf(failed)?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      } finally {
        await restore();
      }
      const { post } = await t.data('query ($id: ID!) { post(id: $id) { title tags } }', { id });
      expect(post.title).not.toBe('Half done');
      expect(post.tags).toEqual(['together']);
    });

    it("should refuse to change another author's tags", async () => {
      const { id } = await createPost(['mine-only']);
      const error = errorOf(await t.gql(UPDATE, { id, input: { tags: ['theirs'] } }, other.token));
      expect(error?.extensions?.code).toBe('FORBIDDEN');
      expect(await tagsOf(id)).toEqual(['mine-only']);
    });

    it('should show each aliased update its own tags, not a cached list', async () => {
      const { id } = await createPost(['alias-zero']);
      const data = await t.data(
        `mutation ($id: ID!) {
          before: updatePost(id: $id, input: { title: "Same" }) { tags }
          a: updatePost(id: $id, input: { tags: ["alias-one"] }) { tags }
          b: updatePost(id: $id, input: { tags: ["alias-two", "alias-one"] }) { tags }
        }`,
        { id },
        author.token,
      );
      expect(data).toEqual({
        before: { tags: ['alias-zero'] },
        a: { tags: ['alias-one'] },
        b: { tags: ['alias-two', 'alias-one'] },
      });
    });
  });

  describe('drafts', () => {
    it("should keep a draft's tags out of tag, postsCount, filters and popularTags until it is published", async () => {
      const published = await createPost(['draft-mix']);
      const draft = await createPost(['draft-mix', 'draft-only'], author, false);
      expect(draft.tags).toEqual(['draft-mix', 'draft-only']);
      expect(await tagsOf(draft.id)).toEqual(['draft-mix', 'draft-only']);

      expect(await tag('draft-only', {}, author.token)).toBeNull();
      const mix = await tag('draft-mix', {}, author.token);
      expect(mix?.postsCount).toBe(1);
      expect(mix?.posts.totalCount).toBe(1);
      expect(mix?.posts.edges.map((e) => e.node.id)).toEqual([published.id]);
      expect(await postIds({ tags: ['draft-mix'] })).toEqual([published.id]);
      const popular = (await t.data(POPULAR, { first: 100 })).popularTags;
      const slugs = popular.edges.map((e: { node: { slug: string } }) => e.node.slug);
      expect(slugs).toContain('draft-mix');
      expect(slugs).not.toContain('draft-only');
      // Someone else cannot read the draft, nor so its tags.
      expect((await t.data(TAGS_OF, { id: draft.id }, other.token)).post).toBeNull();

      await t.data(PUBLISH_POST, { id: draft.id }, author.token);
      expect((await tag('draft-only'))?.postsCount).toBe(1);
      expect((await tag('draft-mix'))?.postsCount).toBe(2);
    });

    it('should forget the tags of a deleted post', async () => {
      const { id } = await createPost(['deleted-tag']);
      expect((await tag('deleted-tag'))?.postsCount).toBe(1);
      await t.data(DELETE_POST, { id }, author.token);
      expect(await tag('deleted-tag')).toBeNull();
    });
  });

  describe('filters', () => {
    let both: string;
    let onlyA: string;
    let byOther: string;

    beforeAll(async () => {
      onlyA = (await createPost(['filter-a'])).id;
      both = (await createPost(['filter-b', 'Filter A'])).id;
      byOther = (await createPost(['filter-a', 'filter-b', 'filter-c'], other)).id;
    });

    it('should keep the posts that have all of the tags, newest first', async () => {
      expect(await postIds({ tags: ['filter-a'] })).toEqual([byOther, both, onlyA]);
      expect(await postIds({ tags: ['FILTER_A', 'filter b'] })).toEqual([byOther, both]);
      expect(await postIds({ tags: ['filter-a', 'filter-b', 'filter-c'] })).toEqual([byOther]);
      expect(await postIds({ tags: ['filter-a', 'no-such-tag'] })).toEqual([]);
      expect(await postIds({ tags: ['filter-a', 'filter-b'], authorId: author.user.id })).toEqual([
        both,
      ]);
    });

    it('should page postsConnection with the filter and count what it pages', async () => {
      const first = (await t.data(POSTS_CONNECTION, { tags: ['filter-a'], first: 2 }))
        .postsConnection;
      expect(first.totalCount).toBe(3);
      expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([byOther, both]);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (
        await t.data(POSTS_CONNECTION, {
          tags: ['filter-a'],
          first: 2,
          after: first.pageInfo.endCursor,
        })
      ).postsConnection;
      expect(second.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([onlyA]);
      expect(second.pageInfo.hasNextPage).toBe(false);
      const mine = (
        await t.data(POSTS_CONNECTION, { tags: ['filter-a'], authorId: author.user.id })
      ).postsConnection;
      expect(mine.totalCount).toBe(2);
    });

    it('should read no filter from an empty list', async () => {
      const all = await postIds({});
      expect(await postIds({ tags: [] })).toEqual(all);
    });

    it('should refuse more than 5 tags, or a tag with nothing left, with BAD_USER_INPUT', async () => {
      for (const query of [POSTS, POSTS_CONNECTION]) {
        const six = errorOf(await t.gql(query, { tags: ['a', 'b', 'c', 'd', 'e', 'f'] }));
        expect(six?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'tags' });
        const empty = errorOf(await t.gql(query, { tags: ['  '] }));
        expect(empty?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'tags' });
      }
      expect(errorOf(await t.gql(TAG, { slug: '---' }))?.extensions?.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('tag', () => {
    it("should page a tag's published posts newest first, with cursors and totalCount", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await createPost(['Paged Tag'])).id);
      const newestFirst = [...ids].reverse();
      const first = await tag('  PAGED_tag ', { first: 2 });
      expect(first?.slug).toBe('paged-tag');
      expect(first?.postsCount).toBe(5);
      expect(first?.posts.totalCount).toBe(5);
      expect(first?.posts.edges.map((e) => e.node.id)).toEqual(newestFirst.slice(0, 2));
      expect(first?.posts.edges[0].node.tags).toEqual(['paged-tag']);

      const seen = [...(first?.posts.edges.map((e) => e.node.id) ?? [])];
      let after = first?.posts.pageInfo.endCursor;
      while (after) {
        const page = await tag('paged-tag', { first: 2, after });
        seen.push(...(page?.posts.edges.map((e) => e.node.id) ?? []));
        after = page?.posts.pageInfo.hasNextPage ? page.posts.pageInfo.endCursor : null;
      }
      expect(seen).toEqual(newestFirst);
    });

    it('should answer null for a tag no post has, and refuse a cursor that is not one', async () => {
      expect(await tag('never-used')).toBeNull();
      const error = errorOf(await t.gql(TAG, { slug: 'paged-tag', after: 'nonsense' }));
      expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('should refuse a page of a tag that the cost rule prices too high', async () => {
      const error = errorOf(
        await t.gql(`{
          popularTags(first: 100) { edges { node { posts(first: 100) { edges { node { id title } } } } } }
        }`),
      );
      expect(error?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(error?.message).toMatch(/too complex/);
    });

    it('should deliver the tags of a post published, on the WebSocket', async () => {
      const { ws } = await t.listen();
      const { client } = wsClient(ws, other.token);
      try {
        const events = collect(client, 'subscription { postCreated { id tags } }');
        await settle();
        const { id } = await createPost(['Live Tag', 'second']);
        const [event] = await events.next(1);
        expect(event.data?.postCreated).toEqual({ id, tags: ['live-tag', 'second'] });
      } finally {
        await client.dispose();
      }
    });
  });
});

describe('Popular tags and statements per request (e2e)', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
  });
  afterAll(() => t.close());

  const createPost = async (tags: string[], publish = true) =>
    (
      await t.data(
        CREATE,
        { input: { title: 'Tagged', content: 'Body', publish, tags } },
        author.token,
      )
    ).createPost.id as string;

  it('should order tags by published posts, then slug, in pages, leaving out tags of drafts only', async () => {
    // gamma 3, alpha 2, beta 2, delta 1; epsilon only on a draft.
    await createPost(['gamma', 'alpha', 'beta']);
    await createPost(['gamma', 'beta']);
    await createPost(['gamma', 'alpha', 'delta']);
    await createPost(['epsilon', 'gamma'], false);

    const all = (await t.data(POPULAR, { first: 10 })).popularTags;
    expect(all.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { slug: 'gamma', postsCount: 3 },
      { slug: 'alpha', postsCount: 2 },
      { slug: 'beta', postsCount: 2 },
      { slug: 'delta', postsCount: 1 },
    ]);
    expect(all.pageInfo.hasNextPage).toBe(false);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { edges: { node: { slug: string } }[]; pageInfo: Record<string, any> } = (
        await t.data(POPULAR, { first: 1, after })
      ).popularTags;
      seen.push(...page.edges.map((e) => e.node.slug));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(['gamma', 'alpha', 'beta', 'delta']);

    expect(errorOf(await t.gql(POPULAR, { after: 'bad' }))?.extensions?.code).toBe(
      'BAD_USER_INPUT',
    );
    expect(errorOf(await t.gql(POPULAR, { first: 101 }))?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  const statementsFor = (query: string, variables: Record<string, unknown> = {}) =>
    t.counted(query, variables);

  it("should read the tags of a page of posts in one statement, whatever the page's size", async () => {
    for (let i = 0; i < 20; i++) await createPost([`bulk-${i % 4}`, 'bulk']);
    const query = 'query ($first: Int) { posts(first: $first) { id tags } }';
    const two = await statementsFor(query, { first: 2 });
    const twenty = await statementsFor(query, { first: 20 });
    expect(two.data.posts).toHaveLength(2);
    expect(twenty.data.posts).toHaveLength(20);
    expect(twenty.data.posts.every((p: { tags: string[] }) => p.tags.includes('bulk'))).toBe(true);
    expect(twenty.count).toBe(two.count);
    expect(twenty.count).toBe(2);
  });

  it('should read the counts and pages of many tags in as many statements as of one', async () => {
    const query = `query ($first: Int) {
      popularTags(first: $first) {
        edges { node { slug postsCount posts(first: 3) { totalCount edges { node { id tags } } } } }
      }
    }`;
    const one = await statementsFor(query, { first: 1 });
    const six = await statementsFor(query, { first: 6 });
    expect(one.data.popularTags.edges).toHaveLength(1);
    expect(six.data.popularTags.edges).toHaveLength(6);
    for (const { node } of six.data.popularTags.edges) {
      expect(node.posts.totalCount).toBe(node.postsCount);
      expect(node.posts.edges.length).toBe(Math.min(3, node.postsCount));
      for (const edge of node.posts.edges) expect(edge.node.tags).toContain(node.slug);
    }
    expect(six.count).toBe(one.count);
  });
});

describe('The kept count of each tag (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  const postgres = testDatabase() === 'postgres';
  /** The placeholders of a raw statement on this database. */
  const p = (n: number) => (postgres ? `$${n}` : '?');

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    author = await t.signUp({ name: 'Author' });
  });
  afterAll(() => t.close());

  const createPost = async (tags: string[], by = author, publish = true) =>
    (
      await t.data(
        CREATE,
        { input: { title: 'Counted', content: 'Body', publish, tags } },
        by.token,
      )
    ).createPost.id as string;

  type Counts = [slug: string, count: number][];
  const byCodePoint = (a: [string, number], b: [string, number]) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
  const read = async (sql: string): Promise<Counts> =>
    ((await t.dataSource.query(sql)) as { slug: string; count: string | number }[])
      .map((row): [string, number] => [row.slug, Number(row.count)])
      .sort(byCodePoint);
  const kept = () => read('SELECT slug, count FROM tag_counts');
  /** What the kept counts must equal: a count of every published post's tags, made now. */
  const counted = () =>
    read(
      'SELECT pt.slug AS slug, COUNT(*) AS count FROM post_tags pt ' +
        'JOIN posts p ON p.id = pt.post_id WHERE p.published_at IS NOT NULL GROUP BY pt.slug',
    );
  const expectInStep = async () => {
    const fresh = await counted();
    expect(await kept()).toEqual(fresh);
    return new Map(fresh);
  };

  it('should follow publishing, unpublishing, tag edits and deletions', async () => {
    const first = await createPost(['kc-a', 'kc-b']);
    const draft = await createPost(['kc-b', 'kc-c'], author, false);
    expect((await expectInStep()).get('kc-c')).toBeUndefined();

    await t.data(PUBLISH_POST, { id: draft }, author.token);
    expect((await expectInStep()).get('kc-b')).toBe(2);

    // No mutation makes a post a draft again; another client may.
    await t.dataSource.query(`UPDATE posts SET published_at = NULL WHERE id = ${p(1)}`, [first]);
    const unpublished = await expectInStep();
    expect([unpublished.get('kc-a'), unpublished.get('kc-b')]).toEqual([undefined, 1]);

    await t.data(UPDATE_POST, { id: draft, input: { tags: ['kc-c', 'kc-d'] } }, author.token);
    const edited = await expectInStep();
    expect([edited.get('kc-b'), edited.get('kc-d')]).toEqual([undefined, 1]);
    // A draft's tag edit changes no count.
    await t.data(UPDATE_POST, { id: first, input: { tags: ['kc-e'] } }, author.token);
    expect((await expectInStep()).get('kc-e')).toBeUndefined();

    await t.dataSource.query(
      `UPDATE post_tags SET slug = 'kc-f' WHERE post_id = ${p(1)} AND slug = 'kc-d'`,
      [draft],
    );
    expect((await expectInStep()).get('kc-f')).toBe(1);

    await t.data(DELETE_POST, { id: draft }, author.token);
    const deleted = await expectInStep();
    expect([deleted.get('kc-c'), deleted.get('kc-f')]).toEqual([undefined, undefined]);
  });

  it('should forget the posts of a deleted account, and only theirs', async () => {
    const leaving = await t.signUp({ name: 'Leaving' });
    await createPost(['kc-shared', 'kc-theirs'], leaving);
    await createPost(['kc-shared'], leaving);
    await createPost(['kc-theirs'], leaving, false);
    await createPost(['kc-shared', 'kc-mine']);
    expect((await expectInStep()).get('kc-shared')).toBe(3);

    await t.data(
      `mutation ($password: String!) { deleteAccount(password: $password) }`,
      { password: leaving.password },
      leaving.token,
    );
    const after = await expectInStep();
    expect([after.get('kc-shared'), after.get('kc-theirs'), after.get('kc-mine')]).toEqual([
      1,
      undefined,
      1,
    ]);

    // Deleted in SQL, with its posts by the foreign key's cascade.
    const gone = await t.signUp({ name: 'Gone' });
    await createPost(['kc-cascade', 'kc-mine'], gone);
    expect((await expectInStep()).get('kc-mine')).toBe(2);
    await t.dataSource.query(`DELETE FROM users WHERE id = ${p(1)}`, [gone.user.id]);
    expect((await expectInStep()).get('kc-cascade')).toBeUndefined();
  });

  it('should count writers that change the same tags at once, in any order', async () => {
    const slugs = ['kc-w1', 'kc-w2', 'kc-w3', 'kc-w4'];
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createPost(i % 2 ? [...slugs].reverse() : slugs, author, i % 3 !== 0),
      ),
    );
    await Promise.all(
      ids.map((id, i) =>
        i % 3 === 0
          ? t.data(PUBLISH_POST, { id }, author.token)
          : t.data(
              UPDATE_POST,
              { id, input: { tags: i % 2 ? slugs.slice(1) : slugs.slice(0, 3).reverse() } },
              author.token,
            ),
      ),
    );
    expect((await expectInStep()).get('kc-w2')).toBe(12);
    await Promise.all(ids.slice(0, 6).map((id) => t.data(DELETE_POST, { id }, author.token)));
    expect((await expectInStep()).get('kc-w2')).toBe(6);
  });

  it('should page popularTags from the kept counts alone, by an index', async () => {
    const statements = await t.statements.during(() =>
      t.data(POPULAR, { first: 2, after: encodeTagCursor({ count: 1, slug: 'kc-a' }) }),
    );
    const sent = statements.statements.join('\n');
    expect(sent).toContain('tag_counts');
    expect(sent).not.toMatch(/post_tags|\bposts\b/);

    // A cursor past every count starts from the most popular tag.
    const top = (await t.data(POPULAR, { first: 1 })).popularTags.edges[0].node;
    const past = encodeTagCursor({ count: 999_999_999_999, slug: 'a' });
    expect((await t.data(POPULAR, { first: 1, after: past })).popularTags.edges[0].node).toEqual(
      top,
    );

    for (const statement of [tagsSql.popular, tagsSql.popularAfter]) {
      const { text, names } = translate(statement.text, postgres ? 'postgres' : 'sqlite');
      const values: Record<string, unknown> = { first: 2, afterCount: 1, afterSlug: 'kc-a' };
      const runner = t.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        // A handful of rows: only priced out of a plain scan does the plan show the index.
        if (postgres) await runner.query('SET LOCAL enable_seqscan = off');
        const rows: Record<string, string>[] = await runner.query(
          `EXPLAIN ${postgres ? '' : 'QUERY PLAN '}${text}`,
          names.map((name) => values[name]),
        );
        const plan = rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n');
        expect(plan).toContain('IDX_tag_counts_popular');
        expect(plan).not.toMatch(/SCAN tc\b(?! USING)|Seq Scan/);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    }
  });

  it('should count the tags there are when the migration runs, and leave nothing when reverted', async () => {
    const migration = new CreateTagCounts1765001000000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await runner.hasTable('tag_counts')).toBe(false);
      if (postgres) expect(await runner.hasTable('tag_count_changes')).toBe(false);
      // Written while there is no count: the migration must find them all the same.
      await createPost(['kc-before', 'kc-shared']);
      await t.data(DELETE_POST, { id: await createPost(['kc-mine']) }, author.token);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const counts = await expectInStep();
    expect([counts.get('kc-before'), counts.get('kc-shared')]).toEqual([1, 2]);
    const page = (await t.data(POPULAR, { first: 100 })).popularTags;
    const mostFirst = [...counts].sort(([a, m], [b, n]) => n - m || byCodePoint([a, m], [b, n]));
    expect(page.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
      mostFirst.map(([slug, postsCount]) => ({ slug, postsCount })),
    );
  });
});
