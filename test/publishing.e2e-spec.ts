import { FOLLOW_USER } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { PostScheduler } from '../src/blog/posts/post-scheduler';

const CARD = `id title slug previousSlugs url status scheduledAt publishedAt excerpt wordCount
  readingTimeMinutes coverImage { url alt caption } seo { title description imageUrl canonicalUrl }`;
const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { ${CARD} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdatePostInput!) {
  updatePost(id: $id, input: $input) { ${CARD} }
}`;
const BY_SLUG = `query ($slug: String!) { postBySlug(slug: $slug) { ${CARD} } }`;
const BODY = `query ($id: ID!) { post(id: $id) { id contentHtml contentText toc { id level title } } }`;
const SCHEDULE = `mutation ($id: ID!, $at: DateTime!) { schedulePost(id: $id, at: $at) { ${CARD} } }`;
const UNSCHEDULE = `mutation ($id: ID!) { unschedulePost(id: $id) { ${CARD} } }`;
const UNPUBLISH = `mutation ($id: ID!) { unpublishPost(id: $id) { ${CARD} } }`;
const PUBLISH = `mutation ($id: ID!) { publishPost(id: $id) { ${CARD} } }`;
const SCHEDULED = `query ($first: Int, $after: String) {
  myScheduledPosts(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id scheduledAt status } }
  }
}`;

const codeOf = (response: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.[0]?.extensions?.code;
const fieldOf = (response: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.[0]?.extensions?.field;
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

describe('Publishing: slugs, rendered content, cards, scheduling (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;

  const create = async (input: Record<string, unknown>, token = author.token) =>
    (await t.data(CREATE, { input }, token)).createPost;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { SITE_URL: 'https://blog.example.com/', SITE_POST_PATH: '/p/{slug}' },
    });
    author = await t.signUp({ name: 'Author' });
    other = await t.signUp({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe('slugs', () => {
    it('should make a slug from the title, lower case with dashes, and a url from SITE_URL', async () => {
      const post = await create({ title: 'Hello, GraphQL World!', content: 'Body' });
      expect(post.slug).toBe('hello-graphql-world');
      expect(post.url).toBe('https://blog.example.com/p/hello-graphql-world');
      expect(post.previousSlugs).toEqual([]);
    });

    it('should add -2, -3 on a clash', async () => {
      const a = await create({ title: 'Same title', content: 'One' });
      const b = await create({ title: 'Same  Title!', content: 'Two' });
      const c = await create({ title: 'same title', content: 'Three', publish: false });
      expect([a.slug, b.slug, c.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
    });

    it('should transliterate Latin accents and keep letters of other scripts', async () => {
      expect((await create({ title: 'Crème brûlée à la Straße', content: 'x' })).slug).toBe(
        'creme-brulee-a-la-strasse',
      );
      expect((await create({ title: 'Привет, мир', content: 'x' })).slug).toBe('привет-мир');
      expect((await create({ title: '日本語のタイトル', content: 'x' })).slug).toBe(
        '日本語のタイトル',
      );
      expect((await create({ title: '!!!', content: 'x' })).slug).toBe('post');
    });

    it('should cut a slug to 80 characters at a dash', async () => {
      const title = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
      const { slug } = await create({ title, content: 'x' });
      expect([...slug].length).toBeLessThanOrEqual(80);
      expect(title.toLowerCase().replaceAll(' ', '-').startsWith(slug)).toBe(true);
      expect(slug.endsWith('-')).toBe(false);
    });

    it('should take a slug the author gives, refusing one another post has or had', async () => {
      const post = await create({ title: 'Given', content: 'x', slug: 'My Own Slug' });
      expect(post.slug).toBe('my-own-slug');
      const clash = await t.gql(
        CREATE,
        { input: { title: 'T', content: 'x', slug: 'my-own-slug' } },
        other.token,
      );
      expect(codeOf(clash)).toBe('CONFLICT');
      expect(fieldOf(clash)).toBe('input.slug');
      const empty = await t.gql(
        CREATE,
        { input: { title: 'T', content: 'x', slug: '---' } },
        author.token,
      );
      expect(codeOf(empty)).toBe('BAD_USER_INPUT');
    });

    it('should keep the old slug on a rename, and find the post by either', async () => {
      const post = await create({ title: 'Renamed post', content: 'x' });
      const renamed = (
        await t.data(UPDATE, { id: post.id, input: { slug: 'new-name' } }, author.token)
      ).updatePost;
      expect(renamed.slug).toBe('new-name');
      expect(renamed.previousSlugs).toEqual(['renamed-post']);
      expect((await t.data(BY_SLUG, { slug: 'renamed-post' })).postBySlug.id).toBe(post.id);
      expect((await t.data(BY_SLUG, { slug: 'new-name' })).postBySlug).toMatchObject({
        id: post.id,
        slug: 'new-name',
      });
      // The old slug stays the post's: another post cannot take it.
      const taken = await t.gql(
        CREATE,
        { input: { title: 'T', content: 'x', slug: 'renamed-post' } },
        other.token,
      );
      expect(codeOf(taken)).toBe('CONFLICT');
      // A title that makes it gets the next one.
      expect((await create({ title: 'Renamed post', content: 'y' }, other.token)).slug).toBe(
        'renamed-post-2',
      );
      // Going back to an old slug makes it current again.
      const back = (
        await t.data(UPDATE, { id: post.id, input: { slug: 'renamed-post' } }, author.token)
      ).updatePost;
      expect(back.slug).toBe('renamed-post');
      expect(back.previousSlugs).toEqual(['new-name']);
    });

    it('should keep drafts private by slug, and answer null for an unknown slug', async () => {
      const draft = await create({ title: 'Secret draft', content: 'x', publish: false });
      expect((await t.data(BY_SLUG, { slug: draft.slug })).postBySlug).toBeNull();
      expect((await t.data(BY_SLUG, { slug: draft.slug }, other.token)).postBySlug).toBeNull();
      expect((await t.data(BY_SLUG, { slug: draft.slug }, author.token)).postBySlug.id).toBe(
        draft.id,
      );
      expect((await t.data(BY_SLUG, { slug: 'no-such-slug' })).postBySlug).toBeNull();
      expect((await t.data(BY_SLUG, { slug: 'x'.repeat(1000) })).postBySlug).toBeNull();
    });

    it('should read the previous slugs of a list in one statement', async () => {
      for (let i = 0; i < 3; i++) {
        const post = await create({ title: `Listed ${i}`, content: 'x' });
        await t.data(UPDATE, { id: post.id, input: { slug: `listed-again-${i}` } }, author.token);
      }
      const few = await t.counted(`{ posts(first: 1) { id previousSlugs } }`);
      const many = await t.counted(`{ posts(first: 3) { id previousSlugs } }`);
      expect(many.count).toBe(few.count);
      expect(
        many.data.posts.map((post: { previousSlugs: string[] }) => post.previousSlugs),
      ).toEqual([['listed-2'], ['listed-1'], ['listed-0']]);
    });
  });

  describe('rendered content', () => {
    const MARKDOWN = [
      '# Title here',
      '',
      'Some **bold** and ~~gone~~ text with a [link](https://example.com) and https://auto.example.com.',
      '',
      '## A table',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '- [x] done',
      '- [ ] to do',
      '',
      '<script>alert(1)</script><img src=x onerror=alert(1)>',
      '',
      '[bad](javascript:alert(1))',
    ].join('\n');

    it('should keep the Markdown as content, and answer sanitised HTML, text and headings', async () => {
      const post = await create({ title: 'Rendered', content: MARKDOWN });
      const { post: body } = await t.data(BODY, { id: post.id });
      expect(body.contentHtml).toContain('<h1 id="title-here">Title here</h1>');
      expect(body.contentHtml).toContain('<strong>bold</strong>');
      expect(body.contentHtml).toContain('<del>gone</del>');
      expect(body.contentHtml).toMatch(
        /<a href="https:\/\/example.com"[^>]* rel="nofollow ugc noopener noreferrer"/,
      );
      expect(body.contentHtml).toContain('<table>');
      expect(body.contentHtml).toContain('checkbox');
      expect(body.contentHtml).not.toMatch(/<script|onerror|javascript:/i);
      expect(body.contentText).toContain('Some bold and gone text');
      expect(body.contentText).not.toContain('**');
      expect(body.toc).toEqual([
        { id: 'title-here', level: 1, title: 'Title here' },
        { id: 'a-table', level: 2, title: 'A table' },
      ]);
    });

    it('should render again on an edit of the content', async () => {
      const post = await create({ title: 'Edited', content: '# One' });
      await t.data(UPDATE, { id: post.id, input: { content: '## Two *words*' } }, author.token);
      const { post: body } = await t.data(BODY, { id: post.id });
      expect(body.contentHtml).toBe('<h2 id="two-words">Two <em>words</em></h2>');
      expect(body.toc).toEqual([{ id: 'two-words', level: 2, title: 'Two words' }]);
      expect(body.contentText).toBe('Two words');
    });

    it("should render a comment's text without headings or images", async () => {
      const post = await create({ title: 'Commented', content: 'x' });
      const { addComment } = await t.data(
        `mutation ($postId: ID!, $text: String!) { addComment(postId: $postId, text: $text) { id textHtml } }`,
        {
          postId: post.id,
          text: '# Big\n\n![i](https://example.com/i.png) *nice* <b onclick=x>b</b>',
        },
        other.token,
      );
      expect(addComment.textHtml).not.toMatch(/<h1|<img|onclick/);
      expect(addComment.textHtml).toContain('<em>nice</em>');
      const { post: read } = await t.data(
        `query ($id: ID!) { post(id: $id) { comments { textHtml } } }`,
        {
          id: post.id,
        },
      );
      expect(read.comments[0].textHtml).toBe(addComment.textHtml);
    });

    it('should read the bodies of a list in one statement, whatever its length', async () => {
      const few = await t.counted(`{ posts(first: 1) { id contentHtml contentText toc { id } } }`);
      const many = await t.counted(
        `{ posts(first: 10) { id contentHtml contentText toc { id } } }`,
      );
      expect(many.count).toBe(few.count);
    });
  });

  describe('cards', () => {
    it('should make an excerpt of the first 200 characters of the text, cut at a word', async () => {
      const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
      const post = await create({ title: 'Long', content: `# Heading\n\n${words}` });
      expect(post.excerpt.length).toBeLessThanOrEqual(201);
      expect(post.excerpt.startsWith('Heading word0 word1')).toBe(true);
      expect(post.excerpt).toMatch(/word\d+…$/);
      expect(post.wordCount).toBe(101);
      expect(post.readingTimeMinutes).toBe(1);
      const longer = await create({ title: 'Longer', content: Array(1000).fill('w').join(' ') });
      expect(longer.readingTimeMinutes).toBe(Math.ceil(1000 / 230));
    });

    it("should take the author's excerpt, cover and SEO, falling back to the post's own", async () => {
      const post = await create({
        title: 'Card',
        content: 'The text of the card.',
        excerpt: 'A short summary.',
        coverImage: { url: 'https://img.example.com/c.png', alt: 'A cover' },
      });
      expect(post.excerpt).toBe('A short summary.');
      expect(post.coverImage).toEqual({
        url: 'https://img.example.com/c.png',
        alt: 'A cover',
        caption: null,
      });
      expect(post.seo).toEqual({
        title: 'Card',
        description: 'A short summary.',
        imageUrl: 'https://img.example.com/c.png',
        canonicalUrl: post.url,
      });
      const updated = (
        await t.data(
          UPDATE,
          {
            id: post.id,
            input: {
              excerpt: null,
              seo: { title: 'SEO title', canonicalUrl: 'https://elsewhere.example/x' },
              coverImage: null,
            },
          },
          author.token,
        )
      ).updatePost;
      expect(updated.excerpt).toBe('The text of the card.');
      expect(updated.coverImage).toBeNull();
      expect(updated.seo).toEqual({
        title: 'SEO title',
        description: 'The text of the card.',
        imageUrl: null,
        canonicalUrl: 'https://elsewhere.example/x',
      });
    });

    it('should refuse a cover that is not an absolute https URL, writing nothing', async () => {
      for (const url of [
        'http://img.example.com/c.png',
        'javascript:alert(1)',
        '/c.png',
        'https://u:p@h.example/c.png',
      ]) {
        const response = await t.gql(
          CREATE,
          { input: { title: 'Bad cover', content: 'x', coverImage: { url } } },
          author.token,
        );
        expect(codeOf(response)).toBe('BAD_USER_INPUT');
        expect(fieldOf(response)).toBe('input.coverImage.url');
      }
      const { posts } = await t.data(`{ posts(first: 50) { title } }`);
      expect(posts.map((post: { title: string }) => post.title)).not.toContain('Bad cover');
    });
  });

  describe('status and scheduling', () => {
    it('should keep a post created with publishAt a scheduled, private draft', async () => {
      const at = inAMinute();
      const post = await create({ title: 'Later', content: 'x', publishAt: at });
      expect(post).toMatchObject({ status: 'SCHEDULED', scheduledAt: at, publishedAt: null });
      expect((await t.data(BY_SLUG, { slug: post.slug })).postBySlug).toBeNull();
      const { myScheduledPosts } = await t.data(SCHEDULED, {}, author.token);
      expect(
        myScheduledPosts.edges.map((edge: { node: { id: string } }) => edge.node.id),
      ).toContain(post.id);
      expect((await t.data(SCHEDULED, {}, other.token)).myScheduledPosts.totalCount).toBe(0);
      expect(codeOf(await t.gql(SCHEDULED))).toBe('UNAUTHENTICATED');
    });

    it('should refuse a time in the past, and a post that is not the caller’s', async () => {
      const draft = await create({ title: 'Draft to schedule', content: 'x', publish: false });
      const past = await t.gql(
        SCHEDULE,
        { id: draft.id, at: new Date(Date.now() - 1000).toISOString() },
        author.token,
      );
      expect(codeOf(past)).toBe('BAD_USER_INPUT');
      const theirs = await t.gql(SCHEDULE, { id: draft.id, at: inAMinute() }, other.token);
      // A draft of someone else is hidden from them: not found, as for every draft.
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain(codeOf(theirs));
      const published = await create({ title: 'Out already', content: 'x' });
      const stranger = await t.gql(SCHEDULE, { id: published.id, at: inAMinute() }, other.token);
      expect(codeOf(stranger)).toBe('FORBIDDEN');
      const createdPast = await t.gql(
        CREATE,
        { input: { title: 'P', content: 'x', publishAt: '2001-01-01T00:00:00.000Z' } },
        author.token,
      );
      expect(codeOf(createdPast)).toBe('BAD_USER_INPUT');
    });

    it('should schedule, unschedule and page the scheduled posts soonest first', async () => {
      const drafts = [];
      for (let i = 0; i < 3; i++)
        drafts.push(await create({ title: `Queue ${i}`, content: 'x', publish: false }));
      const base = Date.now() + 3_600_000;
      for (const [i, draft] of drafts.entries()) {
        const at = new Date(base - i * 60_000).toISOString();
        const { schedulePost } = await t.data(SCHEDULE, { id: draft.id, at }, author.token);
        expect(schedulePost).toMatchObject({ status: 'SCHEDULED', scheduledAt: at });
      }
      const first = (await t.data(SCHEDULED, { first: 2 }, author.token)).myScheduledPosts;
      const rest = (
        await t.data(SCHEDULED, { first: 50, after: first.pageInfo.endCursor }, author.token)
      ).myScheduledPosts;
      const order = [...first.edges, ...rest.edges].map(
        (edge: { node: { id: string } }) => edge.node.id,
      );
      const times = [...first.edges, ...rest.edges].map(
        (edge: { node: { scheduledAt: string } }) => edge.node.scheduledAt,
      );
      expect([...times].sort()).toEqual(times);
      expect(order.indexOf(drafts[2].id)).toBeLessThan(order.indexOf(drafts[0].id));
      const { unschedulePost } = await t.data(UNSCHEDULE, { id: drafts[0].id }, author.token);
      expect(unschedulePost).toMatchObject({ status: 'DRAFT', scheduledAt: null });
      expect(codeOf(await t.gql(SCHEDULED, { after: 'bm9wZQ' }, author.token))).toBe(
        'BAD_USER_INPUT',
      );
    });

    const noticesOf = async (user: TestUser) =>
      (
        await t.data(
          `{ notifications(first: 50) { edges { node { kind post { id } } } } }`,
          {},
          user.token,
        )
      ).notifications.edges.map((edge: { node: unknown }) => edge.node);

    it('should publish a due post as publishPost does, at its scheduled time', async () => {
      const follower = await t.signUp();
      await t.data(FOLLOW_USER, { userId: author.user.id }, follower.token);
      const at = new Date(Date.now() + 1_500).toISOString();
      const post = await create({
        title: 'Due soon',
        content: 'Searchable scheduled words',
        publishAt: at,
        tags: ['scheduled'],
      });
      expect(post.status).toBe('SCHEDULED');
      let found: Record<string, unknown> | null = null;
      for (let i = 0; i < 100 && !found; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        found = (await t.data(BY_SLUG, { slug: post.slug })).postBySlug;
      }
      expect(found).toMatchObject({
        id: post.id,
        status: 'PUBLISHED',
        publishedAt: at,
        scheduledAt: null,
      });
      await t.app.get(PostScheduler).settled();
      const lists = await t.data(`{ posts(first: 100, tags: ["scheduled"]) { id } }`);
      expect(lists.posts).toEqual([{ id: post.id }]);
      await t.fannedOut();
      expect(await noticesOf(follower)).toContainEqual({
        kind: 'FOLLOWEE_PUBLISHED',
        post: { id: post.id },
      });
      // Unpublished, its unread notification goes with it.
      await t.data(UNPUBLISH, { id: post.id }, author.token);
      expect(await noticesOf(follower)).toEqual([]);
    });

    it('should take a published post back to a draft, out of every list', async () => {
      const post = await create({ title: 'Taken back', content: 'x', tags: ['takenback'] });
      const { unpublishPost } = await t.data(UNPUBLISH, { id: post.id }, author.token);
      expect(unpublishPost).toMatchObject({ status: 'DRAFT', publishedAt: null });
      expect((await t.data(`{ posts(first: 100, tags: ["takenback"]) { id } }`)).posts).toEqual([]);
      expect((await t.data(BY_SLUG, { slug: post.slug })).postBySlug).toBeNull();
      expect(codeOf(await t.gql(UNPUBLISH, { id: post.id }, other.token))).toBe('NOT_FOUND');
      const again = (await t.data(PUBLISH, { id: post.id }, author.token)).publishPost;
      expect(again.status).toBe('PUBLISHED');
    });
  });
});
