import { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';

import { launchChromium, openGuardedPage, PageRecord, waitForText } from './helpers/browser';
import { CREATE_POST } from './helpers/documents';
import { startHostApp } from './helpers/host-app';

// Booting Chromium and bundling Monaco's editors take a while on a busy 2-core machine.
jest.setTimeout(120_000);

/**
 * examples/host-app serves the project's own IDE at GET /graphql, from its own origin: with every
 * request to any other origin refused, the editor loads and runs queries, the blog's and the
 * host's. (Apollo's default page, from a CDN, stays on "Loading…" this way.)
 */
describe("The host-app example's IDE in Chromium (e2e)", () => {
  let app: INestApplication;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ app, origin } = await startHostApp('sqlite::memory:'));
    await postAsNewWriter('Served_by_the_host_IDE');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function gql(query: string, variables: object, authorization?: string) {
    const response = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  async function postAsNewWriter(content: string): Promise<void> {
    const { signUp } = await gql(
      `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`,
      { input: { name: 'Host Writer', email: 'ide@host.example', password: 'long enough' } },
    );
    await gql(CREATE_POST, { input: { title: 'In the IDE', content } }, `Bearer ${signUp.token}`);
  }

  /** Opens the IDE at `path` with the network cut to the example's origin, and runs `test`. */
  async function inIde(path: string, test: (page: Page) => Promise<void>): Promise<PageRecord> {
    const { context, page, record } = await openGuardedPage(browser, [origin]);
    try {
      await page.goto(`${origin}${path}`);
      await page.locator('.graphiql-execute-button').waitFor();
      await test(page);
    } finally {
      await context.close();
    }
    return record;
  }

  it('should load the editor and run the pre-filled feed query from the host alone', async () => {
    const record = await inIde('/graphql', async (page) => {
      await waitForText(page, page.locator('.graphiql-query-editor'), 'query Feed {');
      await page.locator('.graphiql-execute-button').click();
      await waitForText(page, page.locator('.result-window'), '"Served_by_the_host_IDE"');
    });
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });

  it("should run the host's own fields beside the blog's", async () => {
    const query = encodeURIComponent('query Hello { greeting(name: "Ada") { message } }');
    const record = await inIde(`/graphql?query=${query}`, async (page) => {
      await waitForText(page, page.locator('.graphiql-query-editor'), 'query Hello');
      await page.locator('.graphiql-execute-button').click();
      await waitForText(page, page.locator('.result-window'), '"message": "Hello, Ada!"');
    });
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });
});
