import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Browser, BrowserContext, chromium, Locator, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); never a browser download. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Screenshots of the browser suites (git-ignored). */
export const ARTIFACTS_DIR = join(__dirname, '..', 'artifacts');

/** Bounds every wait of a browser suite; a page that never renders fails instead of hanging. */
export const BROWSER_TIMEOUT_MS = 20_000;

/**
 * Starts a headless Chromium that talks to nothing but what a test opens: no background
 * networking, no component updates, no GPU (the machine has none).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (jest.config.js skips the ` +
        'browser suites when it is missing, unless CI=true).',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
    timeout: BROWSER_TIMEOUT_MS,
  });
}

/** What a page did that a test wants to assert on. */
export interface PageRecord {
  /** Requests and WebSocket connections to any other origin, which were refused. */
  foreign: string[];
  /** Uncaught exceptions (`pageerror`). */
  errors: string[];
  /** Content-Security-Policy violations the page reported. */
  cspViolations: string[];
}

/**
 * A new page in a fresh context whose every request and WebSocket to an origin outside
 * `origins` is aborted and recorded, with its script errors and CSP violations recorded too.
 * `data:` URLs (fonts and icons inlined in CSS) load nothing from anywhere and pass.
 */
export async function openGuardedPage(
  browser: Browser,
  origins: string[],
): Promise<{ context: BrowserContext; page: Page; record: PageRecord }> {
  const record: PageRecord = { foreign: [], errors: [], cspViolations: [] };
  const allowed = new Set(origins.map((origin) => new URL(origin).host));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || allowed.has(url.host)) return route.continue();
    record.foreign.push(url.href);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, (socket) => {
    if (allowed.has(new URL(socket.url()).host)) {
      socket.connectToServer();
      return;
    }
    record.foreign.push(socket.url());
    void socket.close();
  });
  // Runs in the page, before its own scripts (a string: this file is compiled without DOM types).
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) =>
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));`,
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => record.errors.push(error.message));
  page.on('console', (message) => {
    if (message.text().startsWith('CSP violation')) record.cspViolations.push(message.text());
  });
  return { context, page, record };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, name);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Monaco draws spaces as no-break spaces; compare text with plain ones. */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Waits until the locator's text contains `expected`, within the browser suites' bound. */
export async function waitForText(page: Page, locator: Locator, expected: string): Promise<void> {
  const deadline = Date.now() + BROWSER_TIMEOUT_MS;
  while (!(await textOf(locator)).includes(expected)) {
    if (Date.now() > deadline) {
      throw new Error(`"${expected}" never appeared; the text is:\n${await textOf(locator)}`);
    }
    await page.waitForTimeout(100);
  }
}
