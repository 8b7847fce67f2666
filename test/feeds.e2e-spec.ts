import type { IncomingMessage } from 'node:http';

import { XMLParser } from 'fast-xml-parser';
import type { Response } from 'supertest';

import { DELETE_POST, UPDATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { xmlProblem } from './helpers/xml';

const SITE = 'https://blog.example.com/journal';
const CREATE = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id title url publishedAt status }
}`;
const UNPUBLISH = `mutation ($id: ID!) { unpublishPost(id: $id) { id publishedAt } }`;

const RSS = 'application/rss+xml; charset=utf-8';
const ATOM = 'application/atom+xml; charset=utf-8';
const JSON_FEED = 'application/feed+json; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
const FORMATS = [
  ['feed.xml', RSS],
  ['feed.atom', ATOM],
  ['feed.json', JSON_FEED],
] as const;

/** Elements that may repeat are always arrays, so that one of them reads as many do. */
const REPEATED = new Set(['item', 'entry', 'link', 'category', 'author', 'sitemap', 'url']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => REPEATED.has(name),
});

/**
 * Reads any answer as text, whatever its media type (superagent parses only some); on Node,
 * superagent hands a parser the response stream itself.
 */
function asText(response: Response, done: (error: Error | null, body: string) => void) {
  const stream = response as unknown as IncomingMessage;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface FeedItem {
  id: string;
  title: string;
  url: string;
  authors: string[];
  tags: string[];
  html: string | null;
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The text of an Atom text construct: HTML (`type="html"`) is read back to its text. */
const atomText = (node: unknown): string => {
  const text = textOf(node);
  const html =
    typeof node === 'object' &&
    node !== null &&
    (node as Record<string, unknown>)['@type'] === 'html';
  return html
    ? text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => HTML_ENTITIES[name])
    : text;
};

/** The first of the nodes of an element that may repeat. */
const first = (node: unknown): unknown => (Array.isArray(node) ? node[0] : node);

/** Text of an XML node that may carry attributes (`#text`) or none. */
const textOf = (node: unknown): string =>
  typeof node === 'object' && node !== null
    ? String((node as { '#text'?: unknown })['#text'] ?? '')
    : String(node ?? '');

/**
 * An RSS 2.0 document's items, after checking what the specification requires: `rss` version
 * 2.0 with one `channel` that has `title`, `link` and `description`, and items each with a
 * `title` or a `description`.
 */
function rssItems(text: string): FeedItem[] {
  expect(xmlProblem(text)).toBeNull();
  const { rss } = parser.parse(text);
  expect(rss['@version']).toBe('2.0');
  const { channel } = rss;
  expect(textOf(channel.title)).not.toBe('');
  expect(textOf(first(channel.link))).toMatch(/^https:\/\//);
  expect(textOf(channel.description)).not.toBe('');
  return (channel.item ?? []).map((item: Record<string, any>) => {
    expect(textOf(item.title) || textOf(item.description)).not.toBe('');
    return {
      id: textOf(item.guid),
      title: textOf(item.title),
      url: textOf(first(item.link)),
      authors: [textOf(item['dc:creator'])],
      tags: (item.category ?? []).map(textOf),
      html: item['content:encoded'] === undefined ? null : textOf(item['content:encoded']),
    };
  });
}

/** Atom 1.0 (RFC 4287): the feed has `id`, `title`, `updated`; each entry the same and a link. */
function atomEntries(text: string): FeedItem[] {
  expect(xmlProblem(text)).toBeNull();
  const { feed } = parser.parse(text);
  expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
  for (const element of ['id', 'title', 'updated']) expect(textOf(feed[element])).not.toBe('');
  expect(Number.isNaN(Date.parse(textOf(feed.updated)))).toBe(false);
  return (feed.entry ?? []).map((entry: Record<string, any>) => {
    for (const element of ['id', 'title', 'updated']) expect(textOf(entry[element])).not.toBe('');
    expect(Number.isNaN(Date.parse(textOf(entry.updated)))).toBe(false);
    const alternate = (entry.link ?? []).find(
      (link: Record<string, string>) => (link['@rel'] ?? 'alternate') === 'alternate',
    );
    expect(alternate?.['@href']).toMatch(/^https:\/\//);
    const content = entry.content;
    return {
      id: textOf(entry.id),
      title: atomText(entry.title),
      url: alternate['@href'],
      authors: (entry.author ?? []).map((author: Record<string, unknown>) => textOf(author.name)),
      tags: (entry.category ?? []).map((category: Record<string, string>) => category['@term']),
      html: content === undefined ? null : textOf(content),
    };
  });
}

/** JSON Feed 1.1: `version` and `title`, and each item an `id` and `content_html` or `_text`. */
function jsonItems(text: string): FeedItem[] {
  const feed = JSON.parse(text);
  expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
  expect(typeof feed.title).toBe('string');
  expect(Array.isArray(feed.items)).toBe(true);
  return feed.items.map((item: Record<string, any>) => {
    expect(typeof item.id).toBe('string');
    expect(typeof item.content_html === 'string' || typeof item.content_text === 'string').toBe(
      true,
    );
    return {
      id: item.id,
      title: item.title,
      url: item.url,
      authors: (item.authors ?? []).map((author: { name: string }) => author.name),
      tags: item.tags ?? [],
      html: item.content_html ?? null,
    };
  });
}

const PARSERS: Record<string, (text: string) => FeedItem[]> = {
  'feed.xml': rssItems,
  'feed.atom': atomEntries,
  'feed.json': jsonItems,
};

/** The `<loc>`s of a sitemap index or a sitemap, after checking its root and namespace. */
function sitemapLocations(text: string, root: 'sitemapindex' | 'urlset'): string[] {
  expect(xmlProblem(text)).toBeNull();
  const document = parser.parse(text)[root];
  expect(document['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  const entries: Record<string, string>[] = document[root === 'urlset' ? 'url' : 'sitemap'] ?? [];
  for (const entry of entries) {
    if (root === 'urlset') expect(Number.isNaN(Date.parse(entry.lastmod))).toBe(false);
  }
  return entries.map((entry) => entry.loc);
}

describe('Feeds and the sitemap (e2e)', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const published: Record<string, { id: string; title: string; url: string }> = {};
  const hidden: string[] = [];

  const get = async (app: TestApp, url: string, headers: Record<string, string> = {}) => {
    const response = await app.http.get(url).set(headers).buffer(true).parse(asText);
    return { status: response.status, headers: response.headers, body: response.body } as Answer;
  };

  const create = async (by: TestUser, input: Record<string, unknown>) =>
    (await t.data(CREATE, { input }, by.token)).createPost as {
      id: string;
      title: string;
      url: string | null;
      status: string;
    };

  beforeAll(async () => {
    t = await TestApp.start({ env: { SITE_URL: SITE, FEED_CONTENT: 'excerpt' } });
    ada = await t.signUp({ name: 'Ada Lovelace', handle: 'ada' });
    // Markup and a written-out entity, which the XML must carry as they are.
    bob = await t.signUp({ name: 'Bob <Builder> & Co &amp; Sons', handle: 'bob' });
    const first = await create(ada, {
      title: 'Notes on <the> Analytical Engine & more',
      content: '# Engines\n\nThe engine weaves **algebraic patterns**.',
      tags: ['TypeScript', 'Тест'],
      publish: true,
    });
    const second = await create(bob, {
      title: 'Building things',
      content: 'Hammer and *nails*.',
      tags: ['typescript'],
      publish: true,
    });
    const third = await create(ada, { title: 'Untagged', content: 'Plain words.', publish: true });
    for (const post of [first, second, third]) published[post.title] = post as never;
    const draft = await create(ada, {
      title: 'Secret draft',
      content: 'Not yet.',
      tags: ['typescript', 'draft-only'],
      publish: false,
    });
    const scheduled = await create(ada, {
      title: 'Scheduled for later',
      content: 'Soon.',
      tags: ['typescript'],
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(scheduled.status).toBe('SCHEDULED');
    hidden.push(draft.title, scheduled.title);
  });
  afterAll(() => t?.close());

  describe.each(FORMATS)('%s', (file, contentType) => {
    const parse = PARSERS[file];

    it('should list the published posts, newest first, with their links, ids, authors and tags', async () => {
      const answer = await get(t, `/${file}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(contentType);
      const items = parse(answer.body);
      expect(items.map((item) => item.title)).toEqual([
        'Untagged',
        'Building things',
        'Notes on <the> Analytical Engine & more',
      ]);
      const notes = published['Notes on <the> Analytical Engine & more'];
      const item = items[2];
      expect(item.url).toBe(notes.url);
      expect(notes.url).toMatch(/^https:\/\/blog\.example\.com\/journal\/posts\//);
      expect(item.id).toBe(`urn:uuid:${notes.id}`);
      expect(item.authors).toEqual(['Ada Lovelace']);
      expect(item.tags).toEqual(['typescript', 'тест']);
      expect(items[1].authors).toEqual(['Bob <Builder> & Co &amp; Sons']);
      // FEED_CONTENT=excerpt: no HTML body.
      expect(items.every((entry) => entry.html === null)).toBe(true);
    });

    it('should never list a draft or a scheduled post', async () => {
      for (const path of [`/${file}`, `/authors/ada/${file}`, `/tags/typescript/${file}`]) {
        const answer = await get(t, path);
        const titles = parse(answer.body).map((item) => item.title);
        for (const title of hidden) expect(titles).not.toContain(title);
        expect(answer.body).not.toContain('Secret draft');
      }
    });

    it("should list one author's posts on their feed", async () => {
      const answer = await get(t, `/authors/ada/${file}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(contentType);
      expect(parse(answer.body).map((item) => item.title)).toEqual([
        'Untagged',
        'Notes on <the> Analytical Engine & more',
      ]);
      // A handle is read as handles are written.
      expect((await get(t, `/authors/ADA/${file}`)).body).toBe(answer.body);
    });

    it("should list one tag's posts on its feed, a tag of any script included", async () => {
      const answer = await get(t, `/tags/typescript/${file}`);
      expect(answer.status).toBe(200);
      expect(parse(answer.body).map((item) => item.title)).toEqual([
        'Building things',
        'Notes on <the> Analytical Engine & more',
      ]);
      const cyrillic = await get(t, `/tags/${encodeURIComponent('тест')}/${file}`);
      expect(cyrillic.status).toBe(200);
      expect(parse(cyrillic.body).map((item) => item.title)).toEqual([
        'Notes on <the> Analytical Engine & more',
      ]);
    });

    it.each([
      ['an unknown handle', `/authors/nobody/`],
      ['a handle that cannot be one', `/authors/no%20body!/`],
      ['a handle far too long', `/authors/${'a'.repeat(300)}/`],
      ['an unknown tag', `/tags/rust/`],
      ['a tag of drafts only', `/tags/draft-only/`],
      ['a tag longer than a slug', `/tags/${'t'.repeat(65)}/`],
      ['a tag of nothing but symbols', `/tags/%21%21/`],
    ])('should answer 404 for %s', async (_what, prefix) => {
      const answer = await get(t, `${prefix}${file}`);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body).error.code).toBe('NOT_FOUND');
      expect(answer.headers.etag).toBeUndefined();
    });

    it('should answer 304 with no body to If-None-Match naming its ETag', async () => {
      const first = await get(t, `/${file}`);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get(t, `/${file}`, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      const listed = await get(t, `/${file}`, { 'if-none-match': `"other", W/${etag}` });
      expect(listed.status).toBe(304);
      const other = await get(t, `/${file}`, { 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
      expect(other.body).toBe(first.body);
    });

    it('should answer 304 to If-Modified-Since no older than its Last-Modified', async () => {
      const first = await get(t, `/${file}`);
      const lastModified = first.headers['last-modified'] as string;
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      const same = await get(t, `/${file}`, { 'if-modified-since': lastModified });
      expect(same.status).toBe(304);
      expect(same.body).toBe('');
      const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await get(t, `/${file}`, { 'if-modified-since': older })).status).toBe(200);
      // If-None-Match decides when both are sent.
      const both = { 'if-modified-since': lastModified, 'if-none-match': '"other"' };
      expect((await get(t, `/${file}`, both)).status).toBe(200);
      expect((await get(t, `/${file}`, { 'if-modified-since': 'yesterday' })).status).toBe(200);
    });

    it('should answer a HEAD with the headers of the GET', async () => {
      const head = await t.http.head(`/${file}`).buffer(true).parse(asText);
      const full = await get(t, `/${file}`);
      expect(head.status).toBe(200);
      expect(head.headers.etag).toBe(full.headers.etag);
    });
  });

  describe('a change', () => {
    it('should give a new ETag and document once a post of the feed is edited', async () => {
      const before = await get(t, '/feed.atom');
      const post = published['Building things'];
      await t.data(
        UPDATE_POST,
        { id: post.id, input: { title: 'Building better things' } },
        bob.token,
      );
      const after = await get(t, '/feed.atom', { 'if-none-match': before.headers.etag as string });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(atomEntries(after.body).map((entry) => entry.title)).toContain(
        'Building better things',
      );
      expect(Date.parse(after.headers['last-modified'] as string)).toBeGreaterThanOrEqual(
        Date.parse(before.headers['last-modified'] as string),
      );
      post.title = 'Building better things';
    });

    it('should leave an unpublished or deleted post out at once', async () => {
      const extra = await create(bob, {
        title: 'Short-lived',
        content: 'Gone soon.',
        publish: true,
      });
      const listed = await get(t, '/authors/bob/feed.json');
      expect(jsonItems(listed.body).map((item) => item.title)).toContain('Short-lived');
      await t.data(UNPUBLISH, { id: extra.id }, bob.token);
      const unpublished = await get(t, '/authors/bob/feed.json', {
        'if-none-match': listed.headers.etag as string,
      });
      expect(unpublished.status).toBe(200);
      expect(jsonItems(unpublished.body).map((item) => item.title)).not.toContain('Short-lived');
      const again = await create(bob, { title: 'Deleted soon', content: 'Gone.', publish: true });
      const withIt = await get(t, '/feed.xml');
      expect(rssItems(withIt.body).map((item) => item.title)).toContain('Deleted soon');
      await t.data(DELETE_POST, { id: again.id }, bob.token);
      const without = await get(t, '/feed.xml', { 'if-none-match': withIt.headers.etag as string });
      expect(without.status).toBe(200);
      expect(rssItems(without.body).map((item) => item.title)).not.toContain('Deleted soon');
    });

    it('should carry a title that ends CDATA sections twice, as it is', async () => {
      const title = 'Brackets ]]> and ]]> again, <b>bold</b> & &lt;';
      const post = await create(bob, { title, content: 'Words.', publish: true });
      for (const [file] of FORMATS) {
        const titles = PARSERS[file]((await get(t, `/authors/bob/${file}`)).body).map(
          (item) => item.title,
        );
        expect(titles[0]).toBe(title);
      }
      await t.data(DELETE_POST, { id: post.id }, bob.token);
    });

    it('should keep at most the 20 newest posts', async () => {
      for (let n = 1; n <= 21; n++) {
        await create(bob, { title: `Bulk ${n}`, content: `Post ${n}.`, publish: true });
      }
      for (const [file] of FORMATS) {
        const titles = PARSERS[file]((await get(t, `/${file}`)).body).map((item) => item.title);
        expect(titles).toHaveLength(20);
        expect(titles[0]).toBe('Bulk 21');
        expect(titles[19]).toBe('Bulk 2');
      }
    });
  });

  describe('the sitemap', () => {
    it('should index one sitemap per month, each listing the published posts with lastmod', async () => {
      const index = await get(t, '/sitemap.xml');
      expect(index.status).toBe(200);
      expect(index.headers['content-type']).toBe(XML);
      const month = new Date().toISOString().slice(0, 7);
      const files = sitemapLocations(index.body, 'sitemapindex');
      expect(files).toEqual([`${SITE}/sitemaps/posts-${month}.xml`]);
      const page = await get(t, `/sitemaps/posts-${month}.xml`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe(XML);
      const locations = sitemapLocations(page.body, 'urlset');
      const { posts } = await t.data<{ posts: { url: string }[] }>(
        'query { posts(first: 50) { url } }',
      );
      expect([...locations].sort()).toEqual(posts.map((post) => post.url).sort());
      expect(locations).toHaveLength(3 + 21);
      expect(page.body).not.toContain('secret-draft');
      expect(page.body).not.toContain('scheduled-for-later');
    });

    it('should answer 304 to the validators of the index and of a sitemap', async () => {
      const month = new Date().toISOString().slice(0, 7);
      for (const path of ['/sitemap.xml', `/sitemaps/posts-${month}.xml`]) {
        const first = await get(t, path);
        const byTag = await get(t, path, { 'if-none-match': first.headers.etag as string });
        expect(byTag.status).toBe(304);
        expect(byTag.body).toBe('');
        const byDate = await get(t, path, {
          'if-modified-since': first.headers['last-modified'] as string,
        });
        expect(byDate.status).toBe(304);
      }
    });

    it.each(['posts-1999-01.xml', 'posts-2026-13.xml', 'posts.xml', 'users-2026-01.xml'])(
      'should answer 404 for the sitemap %s',
      async (file) => {
        const answer = await get(t, `/sitemaps/${file}`);
        expect(answer.status).toBe(404);
        expect(JSON.parse(answer.body).error.code).toBe('NOT_FOUND');
      },
    );
  });

  describe('another instance on the same database', () => {
    let full: TestApp;
    beforeAll(async () => {
      full = await TestApp.start({
        env: { SITE_URL: SITE, FEED_CONTENT: 'full' },
        shareDatabaseOf: t,
      });
    });
    afterAll(() => full?.close());

    it('should carry the sanitised HTML of each post with FEED_CONTENT=full', async () => {
      const notes = 'Notes on <the> Analytical Engine & more';
      for (const [file] of FORMATS) {
        const items = PARSERS[file]((await get(full, `/authors/ada/${file}`)).body);
        const item = items.find((entry) => entry.title === notes);
        expect(item?.html).toContain('<strong>algebraic patterns</strong>');
        expect(item?.html).toContain('<h1');
      }
    });

    it('should see a change made through the first instance at once', async () => {
      const before = await get(full, '/authors/ada/feed.atom');
      const post = published.Untagged;
      await t.data(UPDATE_POST, { id: post.id, input: { title: 'Tagged no more' } }, ada.token);
      const after = await get(full, '/authors/ada/feed.atom', {
        'if-none-match': before.headers.etag as string,
      });
      expect(after.status).toBe(200);
      expect(atomEntries(after.body)[0].title).toBe('Tagged no more');
    });

    it('should serve the feed of a tag of 64 letters of another script', async () => {
      const tag = 'я'.repeat(64);
      const post = await create(ada, { title: 'Long tag', content: 'Words.', tags: [tag] });
      const answer = await get(full, `/tags/${encodeURIComponent(tag)}/feed.json`);
      expect(answer.status).toBe(200);
      expect(jsonItems(answer.body).map((item) => item.id)).toEqual([`urn:uuid:${post.id}`]);
      await t.data(DELETE_POST, { id: post.id }, ada.token);
      expect((await get(full, `/tags/${encodeURIComponent(tag)}/feed.json`)).status).toBe(404);
    });
  });

  describe('with the tags feature left out', () => {
    let untagged: TestApp;
    beforeAll(async () => {
      untagged = await TestApp.start({
        env: { SITE_URL: SITE, BLOG_FEATURES: 'search' },
        shareDatabaseOf: t,
      });
    });
    afterAll(() => untagged?.close());

    it('should answer 404 for every tag feed, and list no tags in the others', async () => {
      expect((await get(untagged, '/tags/typescript/feed.xml')).status).toBe(404);
      const items = atomEntries((await get(untagged, '/authors/ada/feed.atom')).body);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.tags.length === 0)).toBe(true);
    });
  });

  describe('without SITE_URL', () => {
    let bare: TestApp;
    beforeAll(async () => {
      bare = await TestApp.start({ env: { SITE_URL: undefined }, shareDatabaseOf: t });
    });
    afterAll(() => bare?.close());

    it.each([
      '/feed.xml',
      '/feed.atom',
      '/feed.json',
      '/authors/ada/feed.xml',
      '/authors/ada/feed.atom',
      '/authors/ada/feed.json',
      '/tags/typescript/feed.xml',
      '/tags/typescript/feed.atom',
      '/tags/typescript/feed.json',
      '/sitemap.xml',
      `/sitemaps/posts-${new Date().toISOString().slice(0, 7)}.xml`,
    ])('should answer 404 for %s', async (path) => {
      const answer = await get(bare, path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'NOT_FOUND', message: expect.stringContaining('SITE_URL') },
      });
    });
  });
});
