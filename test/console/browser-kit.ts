/**
 * A real browser for the console tests: Debian's chromium through playwright-core, against the test app
 * listening on a free port, with a signed-in page that records script errors and CSP violations.
 * Without /usr/bin/chromium the test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { PASSWORD, type OAuthTestApp } from '../oauth/helper.js';

export const SHOTS = 'test-results';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface ConsoleBrowser {
  base: string;
  /** A new browser context signed in as `email`, on `path`. */
  signedIn(email: string, path: string, options?: BrowserContextOptions): Promise<Page>;
  /** Script errors and CSP violations the page reported. */
  problemsOf(page: Page): string[];
  close(): Promise<void>;
}

export async function openConsoleBrowser(t: OAuthTestApp): Promise<ConsoleBrowser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install it with "apt-get install -y chromium"`);
  mkdirSync(SHOTS, { recursive: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
  const problems = new WeakMap<Page, string[]>();
  return {
    base,
    async signedIn(email, path, options = {}) {
      const context = await browser.newContext({ viewport: DESKTOP, ...options });
      const page = await context.newPage();
      const seen: string[] = [];
      problems.set(page, seen);
      page.on('console', (m) => {
        if (m.type() === 'error') seen.push(m.text());
      });
      page.on('pageerror', (e) => seen.push(e.message));
      await page.goto(base + path);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(base + path);
      return page;
    },
    problemsOf: (page) => problems.get(page) ?? [],
    close: () => browser.close(),
  };
}

/**
 * Screenshots of the page at desktop width and at 390 px (`<name>-<dialect>.png`,
 * `<name>-phone-<dialect>.png`); at 390 px the page must not scroll sideways.
 */
export async function shoot(page: Page, name: string, dialect: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-${dialect}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= PHONE.width, `${name}: ${wide} px wide at ${PHONE.width} px`);
  await page.screenshot({ path: `${SHOTS}/${name}-phone-${dialect}.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}
