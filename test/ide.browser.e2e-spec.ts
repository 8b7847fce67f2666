import type { Browser, Locator, Page } from 'playwright-core';

import {
  BROWSER_TIMEOUT_MS,
  launchChromium,
  openGuardedPage,
  PageRecord,
  screenshot,
  textOf,
  waitForText,
} from './helpers/browser';
import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

// Booting Chromium and bundling Monaco's editors take a while on a busy 2-core machine.
jest.setTimeout(120_000);

/** Replaces an editor's text the way a user pastes: one insertion, no auto-closed brackets. */
async function replaceEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe('GraphiQL in Chromium (e2e)', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let author: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { GRAPHIQL: 'true' } });
    origin = new URL((await t.listen()).http).origin;
    author = await t.signUp({ handle: 'ide_author' });
    await t.data(
      CREATE_POST,
      { input: { title: 'Seen in GraphiQL', content: 'Rendered_by_the_IDE' } },
      author.token,
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens the IDE at `path`, runs `test`, and then checks what the page did. */
  async function inIde(
    path: string,
    test: (page: Page) => Promise<void>,
  ): Promise<{ record: PageRecord; sockets: string[] }> {
    const { context, page, record } = await openGuardedPage(browser, [origin]);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    try {
      await page.goto(`${origin}${path}`);
      await page.locator('.graphiql-execute-button').waitFor();
      await test(page);
    } finally {
      await context.close();
    }
    return { record, sockets };
  }

  it('should run the pre-filled feed query, loading nothing from another host', async () => {
    const { record } = await inIde('/graphql', async (page) => {
      const editor = page.locator('.graphiql-query-editor');
      await waitForText(page, editor, 'query Feed {');
      await waitForText(page, editor, 'isLikedByMe');
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.result-window');
      await waitForText(page, result, '"content": "Rendered_by_the_IDE"');
      await waitForText(page, result, '"handle": "ide_author"');

      // The schema came through introspection: the docs list its root types and their fields.
      await page.getByLabel('Show Documentation Explorer').click();
      const docs = page.locator('.graphiql-plugin');
      await waitForText(page, docs, 'Subscription');
      await screenshot(page, 'ide.png');
      await docs.getByText('Query', { exact: true }).click();
      await waitForText(page, docs, 'postsConnection');
    });
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });

  it('should open with a search and a tags tab beside the feed, and run the search', async () => {
    await t.data(
      CREATE_POST,
      { input: { title: 'Found by the IDE', content: 'Searching GraphQL posts from a tab' } },
      author.token,
    );
    const { record } = await inIde('/graphql', async (page) => {
      const editor = page.locator('.graphiql-query-editor');
      await waitForText(page, editor, 'query Feed {');
      const tabs = page.locator('.graphiql-tab-button');
      expect(await tabs.allInnerTexts()).toEqual(['Feed', 'PostPage', 'Search', 'Tags']);
      await tabs.filter({ hasText: 'Search' }).click();
      await waitForText(page, editor, 'query Search {');
      const result = page.locator('.result-window');
      // GraphiQL reads the new tab's operation name once its editor has parsed it; a run just
      // before that names the previous tab's operation. Run until the search answers (bounded).
      for (let attempt = 1; ; attempt += 1) {
        await page.locator('.graphiql-execute-button').click();
        // \s: Monaco draws spaces as no-break spaces.
        const answered = result.filter({ hasText: /Found\sby\sthe\sIDE|Unknown\soperation/ });
        await answered.waitFor({ timeout: BROWSER_TIMEOUT_MS });
        if ((await textOf(result)).includes('"title": "Found by the IDE"')) break;
        if (attempt === 5) throw new Error(`The search never ran: ${await textOf(result)}`);
      }
      await waitForText(page, result, '"snippet": ');
    });
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });

  it('should send the token pasted into the headers editor', async () => {
    const query = encodeURIComponent('query Me { me { handle } }');
    const { record } = await inIde(`/graphql?query=${query}`, async (page) => {
      await waitForText(page, page.locator('.graphiql-query-editor'), 'query Me');
      const headers = page.locator('section[aria-label="Headers"] .graphiql-editor:not(.hidden)');
      await replaceEditorText(page, headers, `{ "authorization": "${author.token}" }`);
      await page.locator('.graphiql-execute-button').click();
      await waitForText(page, page.locator('.result-window'), '"handle": "ide_author"');
    });
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });

  it('should stream a subscription over graphql-ws on the same path', async () => {
    const query = encodeURIComponent('subscription Created { postCreated { content } }');
    const { record, sockets } = await inIde(`/graphql?query=${query}`, async (page) => {
      await waitForText(page, page.locator('.graphiql-query-editor'), 'subscription Created');
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.result-window');
      // The subscription starts once its socket is open; publish until an event shows (bounded).
      for (let attempt = 1; ; attempt += 1) {
        const content = `Streamed_${attempt}`;
        await t.data(CREATE_POST, { input: { title: 'Live', content } }, author.token);
        try {
          await page.locator('.result-window', { hasText: content }).waitFor({ timeout: 2_000 });
          break;
        } catch (error) {
          if (attempt === 5) throw new Error(`No event shown: ${await textOf(result)}`);
          void error;
        }
      }
    });
    expect(sockets).toEqual([`${origin.replace('http:', 'ws:')}/graphql`]);
    expect(record).toEqual({ foreign: [], errors: [], cspViolations: [] });
  });
});
