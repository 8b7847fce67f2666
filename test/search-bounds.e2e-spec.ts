import { CREATE_POST } from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import * as snippets from '../src/blog/search/snippet';
import { MAX_SNIPPET_LENGTH, SNIPPET_CHARACTERS, SNIPPET_WORDS } from '../src/blog/search/snippet';

/**
 * What one search may cost, whatever the posts hold (issue 61): a signed-in user wrote posts of
 * 50,000 characters repeating a few short words, and one anonymous request searched them under
 * 30 aliases, with snippets. Each snippet is bounded, the answer is charged as the snippets are
 * made, and it ends within the response budget or as RESPONSE_TOO_LARGE.
 */

/** Short words, as many as a query may have terms. */
const WORDS = ['al', 'bo', 'cu', 'da', 'el', 'fi', 'go', 'hu'];
const LONG = (() => {
  let text = '';
  for (let i = 0; text.length < 50_000; i++) text += `${WORDS[i % WORDS.length]} `;
  return text.slice(0, 50_000).trim();
})();
/**
 * Long texts of other shapes: words far longer than a snippet (PostgreSQL indexes no word past
 * 2,047 characters), and markup to escape around the words.
 */
const ENDLESS = `al${'l'.repeat(1_498)} `.repeat(33).trim();
const ESCAPED = `"al" & <bo> '${'&"<>'.repeat(12_000)} cu`;

const SEARCH = (first: number, query: string) =>
  `searchPosts(query: "${query}", first: ${first}) { edges { rank snippet node { id } } }`;
const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `s${i}: ${field}`).join(' ')} }`;

type Answer = GraphQLResponse<Record<string, { edges: { snippet: string }[] }>>;

/** What a snippet shows as text: without its marks and ellipses, unescaped. */
const visible = (html: string) =>
  html.replace(/<\/?mark>|…/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ESCAPES[entity]);
const ESCAPES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

describe('The bounds of a search (e2e)', () => {
  let t: TestApp;
  let small: TestApp;
  let writer: TestUser;
  const POSTS = 40;

  beforeAll(async () => {
    // The limits of operations out of the way: this is about the work and the answer.
    const env = {
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      GRAPHQL_MAX_EXPENSIVE_FIELDS: '30',
      GRAPHQL_MAX_COMPLEXITY: '10000000',
    };
    t = await TestApp.start({ env });
    small = await TestApp.start({
      shareDatabaseOf: t,
      env: { ...env, GRAPHQL_MAX_RESPONSE_BYTES: '16384' },
    });
    writer = await t.signUp();
    for (let i = 0; i < POSTS; i++) {
      const content = i % 10 === 1 ? ENDLESS : i % 10 === 2 ? ESCAPED : LONG;
      await t.data(CREATE_POST, { input: { title: `Long ${i}`, content } }, writer.token);
    }
  });
  afterAll(async () => {
    await small?.close();
    await t?.close();
  });

  it('should bound every snippet of long posts in characters and in HTML', async () => {
    const query = WORDS.join(' ');
    const { searchPosts } = await t.data<{
      searchPosts: { edges: { snippet: string }[] };
    }>(`{ ${SEARCH(100, query)} }`);
    expect(searchPosts.edges).toHaveLength(POSTS - (POSTS / 10) * 2);
    const prefixes = await t.data<{ searchPosts: { edges: { snippet: string }[] } }>(
      `{ ${SEARCH(100, 'al')} }`,
    );
    const all = [...searchPosts.edges, ...prefixes.searchPosts.edges];
    expect(prefixes.searchPosts.edges).toHaveLength(POSTS);
    for (const { snippet } of all) {
      expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
      expect(visible(snippet).length).toBeLessThanOrEqual(SNIPPET_CHARACTERS);
    }
    // A word longer than a snippet is cut, marked, and followed by …
    expect(all.map((edge) => edge.snippet)).toContain(
      `<mark>${ENDLESS.slice(0, SNIPPET_CHARACTERS)}</mark>…`,
    );
  });

  it("should bound the post's text, not its Markdown, and cut the snippet from the same text", async () => {
    // 6,000 characters of links, whose text is 120 words: a word after them is searched.
    const links = '[see](https://example.com/a-long-address-that-the-text-leaves-out) '.repeat(90);
    await t.data(
      CREATE_POST,
      { input: { title: 'Links', content: `${links}**heron**` } },
      writer.token,
    );
    const { searchPosts } = await t.data<{
      searchPosts: { edges: { snippet: string; node: { id: string } }[] };
    }>(`{ ${SEARCH(10, 'heron')} }`);
    expect(searchPosts.edges).toHaveLength(1);
    const [{ snippet }] = searchPosts.edges;
    expect(snippet).toBe(`…${'see '.repeat(SNIPPET_WORDS - 1)}<mark>heron</mark>`);
    expect(snippet).not.toMatch(/\*\*|\]\(|https/);
  });

  it('should refuse a query of more terms than the cap, saying so, before any statement', async () => {
    let response!: Answer;
    const statements = await t.statements.count(async () => {
      response = await t.gql(`{ ${SEARCH(100, [...WORDS, 'ix'].join(' '))} }`);
    });
    expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0].message).toMatch(/at most 8 terms/);
    expect(statements).toBe(0);
  });

  it('should answer 30 aliases of the search with snippets within the budget', async () => {
    const document = aliases(30, SEARCH(100, WORDS.join(' ')));
    const response = await t.reply(document);
    expect(response.status).toBe(200);
    const body = response.body as Answer;
    expect(body.errors).toBeUndefined();
    expect(Object.keys(body.data ?? {})).toHaveLength(30);
    expect(JSON.stringify(body).length).toBeLessThan(4 * 1024 * 1024);
  });

  it('should stop making snippets once the answer passes a small budget, and answer RESPONSE_TOO_LARGE', async () => {
    const made = jest.spyOn(snippets, 'snippetOfPost');
    try {
      const response = await small.reply(aliases(30, SEARCH(100, WORDS.join(' '))));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: null,
        errors: [
          {
            message: expect.stringContaining('larger than 16384 bytes'),
            extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 16_384 },
          },
        ],
      });
      // 30 pages of 32 snippets could be made; about 16 KiB of them were.
      expect(made.mock.calls.length).toBeGreaterThan(0);
      expect(made.mock.calls.length).toBeLessThan(100);
    } finally {
      made.mockRestore();
    }
  });
});
