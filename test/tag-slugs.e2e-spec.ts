import { testDatabase } from './helpers/databases';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { RewriteTagSlugs1765003000000 } from '../src/blog/migrations/1765003000000-rewrite-tag-slugs';

const CREATE = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id tags }
}`;
const UPDATE = `mutation ($id: ID!, $input: UpdatePostInput!) {
  updatePost(id: $id, input: $input) { id tags }
}`;
const TAGS_OF = `query ($id: ID!) { post(id: $id) { tags } }`;
const TAG = `query ($slug: String!) { tag(slug: $slug) { slug postsCount } }`;
const POSTS_TAGGED = `query ($tags: [String!]) { postsConnection(tags: $tags, first: 50) { totalCount } }`;
const POPULAR = `query ($first: Int) { popularTags(first: $first) { edges { node { slug postsCount } } } }`;

/** Default-ignorable letters and formats: each draws nothing. */
const FILLERS = ['\u115F', '\u1160', '\u3164', '\uFFA0', '\u200B', '\uFEFF', '\u034F', '\uFE0F'];
const INVISIBLE = /\p{Default_Ignorable_Code_Point}|\p{Cs}/u;

const errorOf = (response: GraphQLResponse) => response.errors?.[0];

type Counts = [slug: string, count: number][];
const byCodePoint = (a: [string, number], b: [string, number]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/** The kept counts of tags, and what they must equal: a count of published posts' tags now. */
async function countsOf(t: TestApp): Promise<{ kept: Counts; counted: Counts }> {
  const read = async (sql: string): Promise<Counts> =>
    ((await t.dataSource.query(sql)) as { slug: string; count: string | number }[])
      .map((row): [string, number] => [row.slug, Number(row.count)])
      .sort(byCodePoint);
  return {
    kept: await read('SELECT slug, count FROM tag_counts'),
    counted: await read(
      'SELECT pt.slug AS slug, COUNT(*) AS count FROM post_tags pt ' +
        'JOIN posts p ON p.id = pt.post_id WHERE p.published_at IS NOT NULL GROUP BY pt.slug',
    ),
  };
}

/** Every popular tag, most first: none may be blank, invisible, or look like another. */
async function popularTags(t: TestApp): Promise<{ slug: string; postsCount: number }[]> {
  const { popularTags: page } = await t.data(POPULAR, { first: 100 });
  const nodes = page.edges.map((edge: { node: { slug: string; postsCount: number } }) => edge.node);
  for (const { slug } of nodes) {
    expect(slug).toMatch(/[\p{L}\p{N}]/u);
    expect(slug).not.toMatch(INVISIBLE);
  }
  const seen = nodes.map((node: { slug: string }) => node.slug.normalize('NFKC'));
  expect(new Set(seen).size).toBe(seen.length);
  return nodes;
}

describe('Tag slugs and invisible or stacked characters (e2e)', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    author = await t.signUp({ name: 'Author' });
  });
  afterAll(() => t.close());

  const create = (tags: string[], publish = true) =>
    t.gql(CREATE, { input: { title: 'Tagged', content: 'Body', publish, tags } }, author.token);

  it('should read a tag with Hangul fillers and zero-width characters as the tag it looks like', async () => {
    const tags = [
      'Rust',
      ...FILLERS.map((filler, i) => (i % 2 ? `${filler}rust` : `ru${filler}st`)),
    ];
    const { data } = await create(tags);
    expect(data?.createPost.tags).toEqual(['rust']);

    const { createPost } = await t.data(
      CREATE,
      {
        input: { title: 'Tagged', content: 'Body', tags: ['go\u3164lang', 'web\u200B dev\uFEFF'] },
      },
      author.token,
    );
    expect(createPost.tags).toEqual(['golang', 'web-dev']);
    const { updatePost } = await t.data(
      UPDATE,
      { id: createPost.id, input: { tags: ['\u115F\u1160go', 'rust\u3164', 'golang'] } },
      author.token,
    );
    expect(updatePost.tags).toEqual(['go', 'rust', 'golang']);
    expect((await t.data(TAGS_OF, { id: createPost.id })).post.tags).toEqual([
      'go',
      'rust',
      'golang',
    ]);
  });

  it.each(
    FILLERS.map((filler) => [
      `U+${filler.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
      filler,
    ]),
  )('should refuse a tag of nothing but %s as an empty tag', async (_, filler) => {
    const created = await create(['rust', `${filler}${filler} ${filler}`]);
    expect(created.data).toBeNull();
    expect(errorOf(created)?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.tags',
    });
    expect(errorOf(created)?.message).toMatch(/no letter or digit/);
  });

  it('should refuse a tag of fillers on updatePost, and leave the tags as they were', async () => {
    const { createPost } = await t.data(
      CREATE,
      { input: { title: 'Kept', content: 'Body', tags: ['kept'] } },
      author.token,
    );
    const updated = await t.gql(
      UPDATE,
      { id: createPost.id, input: { tags: ['\u3164'] } },
      author.token,
    );
    expect(errorOf(updated)?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.tags',
    });
    expect((await t.data(TAGS_OF, { id: createPost.id })).post.tags).toEqual(['kept']);
  });

  it('should take two combining marks on a letter and refuse three or more, naming the field', async () => {
    const { data } = await create(['a\u0301\u0323', 'Tiếng Việt', 'ज़िंदगी']);
    expect(data?.createPost.tags).toEqual([
      'a\u0323\u0301'.normalize('NFC'),
      'tiếng-việt',
      'ज़िंदगी',
    ]);

    for (const tag of ['a\u0301\u0302\u0303', `zalgo${'\u0301'.repeat(63)}`, 'é\u0301\u0301']) {
      const created = await create([tag]);
      expect(created.data).toBeNull();
      expect(errorOf(created)?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        field: 'input.tags',
      });
      expect(errorOf(created)?.message).toMatch(/more than 2 combining marks/);
    }
    const { createPost } = await t.data(
      CREATE,
      { input: { title: 'Marks', content: 'Body', tags: ['marks'] } },
      author.token,
    );
    const updated = await t.gql(
      UPDATE,
      { id: createPost.id, input: { tags: [`o${'\u0308'.repeat(5)}`] } },
      author.token,
    );
    expect(errorOf(updated)?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.tags',
    });
  });

  it('should refuse lone surrogates in tags, filters and tag lookups', async () => {
    for (const tag of ['rust\uD800', '\uDC00rust', '\uD83D']) {
      const created = await create([tag]);
      expect(created.data).toBeNull();
      expect(errorOf(created)?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        field: 'input.tags',
      });
      expect(errorOf(created)?.message).toMatch(/lone surrogates/);
    }
    const looked = await t.gql(TAG, { slug: 'rust\uD800' });
    expect(errorOf(looked)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'slug' });
    const filtered = await t.gql(POSTS_TAGGED, { tags: ['\uDFFFrust'] });
    expect(errorOf(filtered)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'tags' });
    // A pair of surrogates is one character, and taken.
    expect((await create(['𝐓𝐚𝐠'])).data?.createPost.tags).toEqual(['tag']);
  });

  it('should find a tag by a look-alike, and list no blank or look-alike tag in popularTags', async () => {
    const rust = (await t.data(TAG, { slug: 'rust\u3164' })).tag;
    expect(rust.slug).toBe('rust');
    expect((await t.data(TAG, { slug: '\u115Frust\u200B' })).tag).toEqual(rust);
    expect((await t.data(POSTS_TAGGED, { tags: ['ru\u1160st'] })).postsConnection.totalCount).toBe(
      rust.postsCount,
    );

    const popular = await popularTags(t);
    expect(popular.filter((node) => node.slug === 'rust')).toEqual([rust]);
    const { kept, counted } = await countsOf(t);
    expect(kept).toEqual(counted);
  });
});

describe('The migration that rewrites stored tag slugs (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  const postgres = testDatabase() === 'postgres';
  /** The placeholder of the `n`th parameter of a raw statement on this database. */
  const p = (n: number) => (postgres ? `$${n}` : '?');
  const at = new Date().toISOString().replace('T', ' ').replace('Z', '');

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    author = await t.signUp({ name: 'Author' });
  });
  afterAll(() => t.close());

  /** Inserts `rows` into `table`, as another client (or the rule before) might have written them. */
  const insert = async (table: string, columns: string[], rows: unknown[][]) => {
    for (let start = 0; start < rows.length; start += 100) {
      const chunk = rows.slice(start, start + 100);
      const values = chunk
        .map((_, r) => `(${columns.map((__, c) => p(r * columns.length + c + 1)).join(', ')})`)
        .join(', ');
      await t.dataSource.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`,
        chunk.flat(),
      );
    }
  };
  let posts = 0;
  /** Posts written straight into the database, published unless `published` is false. */
  const insertPosts = async (count: number, published = true) => {
    const ids = Array.from(
      { length: count },
      () => `00000000-0000-7000-8000-${String((posts += 1)).padStart(12, '0')}`,
    );
    await insert(
      'posts',
      ['id', 'title', 'content', 'author_id', 'created_at', 'updated_at', 'published_at'],
      ids.map((id) => [id, 'Seeded', 'Body', author.user.id, at, at, published ? at : null]),
    );
    return ids;
  };
  /** Tags written as they are, in order, bypassing the rule. */
  const tag = (postId: string, slugs: string[]) =>
    insert(
      'post_tags',
      ['post_id', 'slug', 'position'],
      slugs.map((slug, position) => [postId, slug, position]),
    );
  const tagsOf = async (postId: string): Promise<string[]> =>
    (
      (await t.dataSource.query(
        `SELECT slug FROM post_tags WHERE post_id = ${p(1)} ORDER BY position`,
        [postId],
      )) as { slug: string }[]
    ).map((row) => row.slug);

  const migrate = async () => {
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await new RewriteTagSlugs1765003000000().up(runner);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  };

  it('should rewrite bad slugs with the rule, merge what a post would hold twice, and keep the counts', async () => {
    const [merged, emptied, stacked, draft, twice, untouched] = await insertPosts(6);
    await t.dataSource.query(`UPDATE posts SET published_at = NULL WHERE id = ${p(1)}`, [draft]);
    await tag(merged, ['rust\u3164', 'go', 'rust', '\u115Fgo\u1160']);
    await tag(emptied, ['\u3164', 'kept', '\u115F\u1160', '\uFFA0']);
    // 50 marks: PostgreSQL's column holds 64 characters.
    await tag(stacked, [`zalgo${'\u0301'.repeat(50)}`, 'a\u0301\u0302\u0303']);
    await tag(draft, ['\u200Brust', 'draft\uFE0F']);
    await tag(twice, ['e\u0301\u0301\u0301\u0301', 'é\u0301\u0301', 'é\u0301']);
    await tag(untouched, ['rust', 'kept', 'ज़िंदगी']);

    const before = await countsOf(t);
    expect(before.kept).toEqual(before.counted);
    expect(before.kept.map(([slug]) => slug)).toEqual(expect.arrayContaining(['rust\u3164']));

    await migrate();

    expect(await tagsOf(merged)).toEqual(['rust', 'go']);
    expect(await tagsOf(emptied)).toEqual(['kept']);
    expect(await tagsOf(stacked)).toEqual(
      ['zalgo\u0301\u0301', 'a\u0301\u0302'].map((slug) => slug.normalize('NFC')),
    );
    expect(await tagsOf(draft)).toEqual(['rust', 'draft']);
    expect(await tagsOf(twice)).toEqual(['é\u0301']);
    expect(await tagsOf(untouched)).toEqual(['rust', 'kept', 'ज़िंदगी']);

    const after = await countsOf(t);
    expect(after.kept).toEqual(after.counted);
    const counts = new Map(after.kept);
    expect([counts.get('rust'), counts.get('go'), counts.get('kept'), counts.get('draft')]).toEqual(
      [2, 1, 2, undefined],
    );
    expect(after.kept.filter(([slug]) => INVISIBLE.test(slug) || slug === '')).toEqual([]);

    const popular = await popularTags(t);
    expect(popular.find((node) => node.slug === 'rust')?.postsCount).toBe(2);
    // The positions of the merged post follow the first of each slug.
    expect((await t.data(TAGS_OF, { id: merged })).post.tags).toEqual(['rust', 'go']);
  });

  it('should rewrite more posts and more distinct slugs than one batch holds', async () => {
    // 1,200 posts with a filler tag (three batches of posts), and 1,500 other distinct slugs
    // before it (two pages of slugs), of which the last is bad too.
    const many = await insertPosts(1_200);
    const drafts = await insertPosts(300, false);
    await insert(
      'post_tags',
      ['post_id', 'slug', 'position'],
      [...many, ...drafts].flatMap((id, i) => [
        [id, `zz-bulk\u3164`, 0],
        [id, 'zz-bulk', 1],
        [id, `bulk-${String(i).padStart(4, '0')}`, 2],
      ]),
    );
    await tag(many[0], ['zzzz\u200B']);

    await migrate();

    const rows = (await t.dataSource.query(
      `SELECT slug, COUNT(*) AS count FROM post_tags WHERE slug LIKE ${p(1)} GROUP BY slug`,
      ['zz%'],
    )) as { slug: string; count: string | number }[];
    expect(
      rows.map((row): [string, number] => [row.slug, Number(row.count)]).sort(byCodePoint),
    ).toEqual([
      ['zz-bulk', 1_500],
      ['zzzz', 1],
    ]);
    expect(await tagsOf(many[700])).toEqual(['zz-bulk', 'bulk-0700']);
    const after = await countsOf(t);
    expect(after.kept).toEqual(after.counted);
    expect(new Map(after.kept).get('zz-bulk')).toBe(1_200);

    // Run again, it finds nothing to do.
    const statements = await t.statements.during(() => migrate());
    expect(statements.statements.join('\n')).not.toMatch(
      /(INSERT INTO|UPDATE|DELETE FROM) post_tags/,
    );
  });
});
