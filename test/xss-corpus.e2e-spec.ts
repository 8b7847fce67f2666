import { XSS_PAYLOADS } from './fixtures/xss-payloads';
import { dangersIn, judgedHtml } from './helpers/html-judge';
import { TestApp, TestUser } from './helpers/test-app';

const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id } }`;
const COMMENT = `mutation ($postId: ID!, $text: String!) { addComment(postId: $postId, text: $text) { id } }`;
const STORED = `query ($id: ID!) { post(id: $id) { contentHtml } }`;

/** A stored HTML that the judge would change, with the payload that made it. */
interface Finding {
  payload: string;
  stored: string;
  judged: string;
}

/**
 * More than 200 XSS payloads go through createPost and addComment as any client's would, and each
 * stored HTML, read back through the API, is passed through an independent sanitiser (DOMPurify
 * under jsdom) that must change nothing.
 */
describe('XSS payloads through posts and comments (e2e)', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    author = await t.signUp();
  });
  afterAll(() => t.close());

  it('should hold more than 200 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThan(200);
  });

  it("should store posts' HTML that DOMPurify leaves as it is", async () => {
    const findings: Finding[] = [];
    let stored = 0;
    for (const payload of XSS_PAYLOADS) {
      const input = { title: 'XSS', content: payload };
      const created = await t.gql(CREATE, { input }, author.token);
      // A payload of invisible characters alone is refused, and stores nothing to judge.
      if (created.errors) {
        expect(created.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
        continue;
      }
      const { post } = await t.data(STORED, { id: created.data!.createPost.id });
      stored++;
      const judged = judgedHtml(post.contentHtml);
      if (judged !== null) findings.push({ payload, stored: post.contentHtml, judged });
      expect(dangersIn(post.contentHtml)).toEqual([]);
    }
    expect(stored).toBeGreaterThan(200);
    expect(findings).toEqual([]);
  });

  it("should store comments' HTML that DOMPurify leaves as it is", async () => {
    const { createPost } = await t.data(
      CREATE,
      { input: { title: 'Target', content: 'x' } },
      author.token,
    );
    const findings: Finding[] = [];
    let stored = 0;
    for (const payload of XSS_PAYLOADS) {
      const added = await t.gql(COMMENT, { postId: createPost.id, text: payload }, author.token);
      if (added.errors) {
        expect(added.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
        continue;
      }
      stored++;
    }
    expect(stored).toBeGreaterThan(200);
    const comments: { text: string; textHtml: string }[] = [];
    for (let after: string | undefined; ;) {
      const page = await t.data(
        `query ($id: ID!, $after: ID) { post(id: $id) { comments(first: 100, after: $after) { id text textHtml } } }`,
        { id: createPost.id, after },
      );
      comments.push(...page.post.comments);
      if (page.post.comments.length < 100) break;
      after = page.post.comments.at(-1).id;
    }
    expect(comments).toHaveLength(stored);
    for (const { text, textHtml } of comments) {
      const judged = judgedHtml(textHtml);
      if (judged !== null) findings.push({ payload: text, stored: textHtml, judged });
      expect(dangersIn(textHtml, ['IMG', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6'])).toEqual([]);
    }
    expect(findings).toEqual([]);
  });
});
