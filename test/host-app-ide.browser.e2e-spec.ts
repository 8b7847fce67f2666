import type { AddressInfo } from 'node:net';

import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Browser, Locator, Page } from 'playwright-core';

import { BROWSER_TIMEOUT_MS, launchChromium, openGuardedPage, PageRecord } from './helpers/browser';
import { CREATE_POST } from './helpers/documents';
import { HostAppModule } from '../examples/host-app/host-app.module';

// Booting Chromium and bundling Monaco's editors take a while on a busy 2-core machine.
jest.setTimeout(120_000);

/** Monaco draws spaces as no-break spaces; compare text with plain ones. */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Waits until the locator's text contains `expected`, within the browser suites' bound. */
async function waitForText(page: Page, locator: Locator, expected: string): Promise<void> {
  const deadline = Date.now() + BROWSER_TIMEOUT_MS;
  while (!(await textOf(locator)).includes(expected)) {
    if (Date.now() > deadline) {
      throw new Error(`"${expected}" never appeared; the text is:\n${await textOf(locator)}`);
    }
    await page.waitForTimeout(100);
  }
}

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
    const saved = { ...process.env };
    process.env.DATABASE_URL = 'sqlite::memory:';
    try {
      const moduleRef = await Test.createTestingModule({ imports: [HostAppModule] }).compile();
      app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
      await app.listen(0, '127.0.0.1');
    } finally {
      process.env = saved;
    }
    const { port } = app.getHttpServer().address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
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
