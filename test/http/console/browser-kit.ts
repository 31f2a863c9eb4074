/**
 * A real browser for the console tests: Debian's chromium through playwright-core, against the test app
 * listening on a free port, with a signed-in page that records script errors and CSP violations.
 * Without /usr/bin/chromium the test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { PASSWORD, type OAuthTestApp } from '../../auth/oauth/flows.js';

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

/** One rule axe-core found broken, with the elements that break it. */
export interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The WCAG 2.0 and 2.1 success criteria of levels A and AA, by axe-core's tags. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
let axeSource: string | undefined;

/**
 * axe-core (a dev dependency) run on the page as it is now, for the rules tagged `tags`; the violations
 * as rule, impact, help text and the selectors of the elements, so that a test asserts `[]` and a
 * failure reads as what to fix. The script goes in through the DevTools protocol (page.evaluate): the
 * console's policy allows only 'self' scripts, so page.addScriptTag's inline script would be refused,
 * and the page keeps the policy it is served with (a CSP violation is still one the test sees).
 */
export async function axeViolations(page: Page, tags: string[] = WCAG_AA): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  return page.evaluate(async (values) => {
    const axe = (window as unknown as { axe: AxeRun }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, tags);
}

/** The part of axe-core's API used above (its own typings describe the module, not the page global). */
interface AxeRun {
  run(
    context: Document,
    options: { runOnly: { type: 'tag'; values: string[] }; resultTypes: string[] },
  ): Promise<{
    violations: Array<{ id: string; impact?: string | null; help: string; nodes: Array<{ target: string[] }> }>;
  }>;
}
