import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';

import { launchChromium, openGuardedPage, PageRecord, screenshot } from './helpers/browser';
import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

// Booting Chromium and bundling Apollo Client take a while on a busy 2-core machine.
jest.setTimeout(120_000);

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Blog client</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <h1>Feed</h1>
    <form id="new-post">
      <input name="title" placeholder="Title" />
      <input name="content" placeholder="What is new?" />
      <button type="submit">Publish</button>
    </form>
    <p id="status"></p>
    <p id="error" role="alert" style="color: #b00020"></p>
    <ul id="feed"></ul>
    <script type="module" src="/client.js"></script>
  </body>
</html>
`;

/** Bundles the browser client with Apollo Client into one script, as a web app's build would. */
async function bundleClient(dir: string): Promise<string> {
  const outfile = join(dir, 'client.js');
  await build({
    entryPoints: [join(__dirname, 'browser-client', 'blog-client.tsx')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  return readFileSync(outfile, 'utf8');
}

/** The web app's own origin: another port of 127.0.0.1, serving the page and its script. */
async function servePage(script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const [type, body] =
      path === '/'
        ? ['text/html; charset=utf-8', PAGE]
        : path === '/client.js'
          ? ['text/javascript; charset=utf-8', script]
          : [null, 'Not found'];
    response.writeHead(type ? 200 : 404, { 'content-type': type ?? 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

async function feedContents(page: Page): Promise<string[]> {
  return page.locator('#feed li .content').allInnerTexts();
}

describe('Apollo Client in Chromium, from another origin (e2e)', () => {
  let t: TestApp;
  let api: string;
  let author: TestUser;
  let browser: Browser;
  let pageServer: { server: Server; origin: string };
  let bundleDir: string;

  beforeAll(async () => {
    t = await TestApp.start();
    api = (await t.listen()).http;
    author = await t.signUp({ name: 'Ada Browser', handle: 'ada_browser' });
    for (const content of ['The first post', 'The second post']) {
      await t.data(CREATE_POST, { input: { title: 'Seed', content } }, author.token);
    }
    bundleDir = mkdtempSync(join(tmpdir(), 'blog-browser-client-'));
    pageServer = await servePage(await bundleClient(bundleDir));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.server.close(resolve));
    if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
    await t?.close();
  });

  it('should read the feed, prepend a created post from the cache, and show a failure', async () => {
    const apiOrigin = new URL(api).origin;
    expect(pageServer.origin).not.toBe(apiOrigin);
    const { context, page, record } = await openGuardedPage(browser, [
      pageServer.origin,
      apiOrigin,
    ]);
    const operations: string[] = [];
    const allowOrigins = new Set<string | undefined>();
    page.on('request', (request) => {
      if (request.url() === api && request.method() === 'POST') {
        operations.push((request.postDataJSON() as { operationName: string }).operationName);
      }
    });
    page.on('response', (response) => {
      if (response.url() === api)
        allowOrigins.add(response.headers()['access-control-allow-origin']);
    });
    let failure: PageRecord | undefined;
    try {
      const query = new URLSearchParams({ api, token: author.token });
      await page.goto(`${pageServer.origin}/?${query}`);
      await page.locator('body[data-feed-loaded="true"]').waitFor();
      expect(await feedContents(page)).toEqual(['The second post', 'The first post']);

      // createPost(input:): the result goes to the top of the cached feed, with no refetch.
      await page.fill('input[name="title"]', 'From the browser');
      await page.fill('input[name="content"]', 'Written with <b>Apollo Client</b>');
      await page.click('button[type="submit"]');
      await page.locator('#status', { hasText: 'Published' }).waitFor();
      expect(await feedContents(page)).toEqual([
        'Written with <b>Apollo Client</b>',
        'The second post',
        'The first post',
      ]);
      expect(operations).toEqual(['Feed', 'CreatePost']);

      // A failed mutation: the error's message, as the service sent it, is on the page.
      const expected = await t.gql(
        CREATE_POST,
        { input: { title: '', content: 'No title' } },
        author.token,
      );
      expect(expected.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      await page.fill('input[name="title"]', '');
      await page.fill('input[name="content"]', 'No title');
      await page.click('button[type="submit"]');
      await page.locator('#status', { hasText: 'Failed' }).waitFor();
      expect(await page.locator('#error').innerText()).toBe(expected.errors![0].message);
      expect(await feedContents(page)).toHaveLength(3);
      expect(operations).toEqual(['Feed', 'CreatePost', 'CreatePost']);
      await screenshot(page, 'apollo-client.png');

      // Every answer was readable from the page's origin only because CORS allowed it.
      expect([...allowOrigins]).toEqual(['*']);
      failure = record;
    } finally {
      await context.close();
    }
    expect(failure).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });
});
