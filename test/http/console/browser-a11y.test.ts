/**
 * Accessibility of the console and the pages around it, in a real browser (test/http/console/browser-kit.ts).
 * Signed in as an admin of a seeded fleet: the dashboard, map, vehicles (list, edit form, confirmation),
 * a vehicle's day, geofences (list, drawing), devices, drivers and users (list, form), groups, the
 * dispatch board and form, hours of service, IFTA, reports, alerts and their settings, API keys and
 * installed apps; then the developer portal (apps,
 * registration, an app) and the sign-in page. Each at 1280 px in light mode and at 390 px in dark mode
 * (a phone set to dark; with both databases, the desktop on SQLite and the phone on PostgreSQL), and each
 * must have
 * - no violation axe-core finds among the WCAG 2.0/2.1 A and AA rules (names, labels, contrast,
 *   landmarks, ARIA use, language…);
 * - nothing scrolling sideways (the scrolling element's scroll width within its client width);
 * - its main navigation reachable with the Tab key from the top of the page, and its primary action
 *   from there too: past the navigation by "Skip to content" (the first Tab stop) on console pages.
 * One browser, one context per width; the pages run in one pass so that a failure lists them all, with
 * no script error or CSP violation on the way.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { dialects, eachDialect } from '../../helper.js';
import {
  Browser,
  PASSWORD,
  inputValue,
  tokensFor,
  uniq,
  useOAuthApp,
  type OAuthTestApp,
} from '../../auth/oauth/flows.js';
import { createDispatch, world } from '../../domain/dispatch/fixtures.js';
import { DESKTOP, PHONE, axeViolations, openConsoleBrowser, type ConsoleBrowser } from './browser-kit.js';
import { seedDashboardFleet, type DashboardFleet } from './dashboard-fixtures.js';
import { asCompany } from './kit.js';

/** A page to check: where, what shows it is ready, its navigation and its primary action. */
interface Visit {
  name: string;
  /** Opened with page.goto; absent when the previous step's action led here. */
  path?: string;
  ready: (page: Page) => Locator;
  nav?: (page: Page) => Locator;
  primary: (page: Page) => Locator;
  /** What to do on the page once it is checked (sign in, fill a form), leading to the next. */
  then?: (page: Page) => Promise<void>;
}

const consoleNav = (name: string) => (page: Page) =>
  page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const link = (name: string | RegExp) => (page: Page) => page.getByRole('link', { name, exact: true });
const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name, exact: true });

type Watched = Window & { focused: EventTarget[] };

/** Notes from now on each element that gets the focus, in order (window.focused). */
const watchFocus = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Watched;
    w.focused = [];
    document.addEventListener('focusin', (e) => e.target && w.focused.push(e.target));
  });

/**
 * Presses Tab, in bursts of up to 5, until `target` has had the focus since the watch began; false
 * after `limit` presses. The default leaves room for the developer portal's 70 scope boxes before its
 * Register button (Enter in the name field submits that form too).
 */
async function tabTo(page: Page, target: Locator, limit = 100): Promise<boolean> {
  if ((await target.count()) === 0) return false;
  const el = await target.elementHandle();
  const had = () => page.evaluate((e) => (window as unknown as Watched).focused.includes(e!), el);
  for (let i = 0; !(await had()); i += 5) {
    if (i >= limit) return false;
    for (let k = 0; k < Math.min(5, limit); k++) await page.keyboard.press('Tab');
  }
  return true;
}

/**
 * What keeps the page's navigation link or primary action from the keyboard (empty when nothing does),
 * done as a keyboard user does it: from the top of the page as it loaded, Tab reaches the navigation
 * link; on a console page the first Tab stop is "Skip to content", and Enter on it then Tab reach the
 * primary action past the navigation. On a page without that link Tab goes on from the top.
 */
async function keyboardProblems(page: Page, nav: Locator | undefined, primary: Locator): Promise<string[]> {
  const problems: string[] = [];
  await watchFocus(page);
  if (nav && !(await tabTo(page, nav))) problems.push(`not reached with Tab: ${nav}`);
  const skip = page.getByRole('link', { name: 'Skip to content' });
  if ((await skip.count()) > 0) {
    const el = await skip.elementHandle();
    const first =
      (await tabTo(page, skip, 1)) && (await page.evaluate((e) => (window as unknown as Watched).focused[0] === e, el));
    if (!first) problems.push('"Skip to content" is not the first Tab stop');
    await skip.focus();
    await page.keyboard.press('Enter');
    await page.evaluate(() => ((window as unknown as Watched).focused = []));
  }
  if (!(await tabTo(page, primary))) problems.push(`not reached with Tab: ${primary}`);
  return problems;
}

eachDialect('console accessibility at desktop and phone widths', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let web: ConsoleBrowser;
  let fleet: DashboardFleet;
  let developer: string;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
    fleet = await seedDashboardFleet(t);
    // A planned dispatch, so that the board shows a card with its actions (the API acts as the company).
    const api = asCompany(t, { ...t.fleet, companyId: fleet.companyId, apiKey: fleet.apiKey });
    await createDispatch(api, await world(api));
    // An installed app, so that its permissions and its remove button are on the apps page.
    await tokensFor(t, 'vehicles.read', { email: fleet.admin });
    // A developer account, signed up through the portal's own form.
    const b = new Browser(t.app);
    const form = await b.get('/developers/sign-up');
    developer = `dev.${uniq()}@apps.test`;
    const res = await b.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'Dana Dev',
      email: developer,
      password: PASSWORD,
    });
    assert.equal(res.status, 303, res.body);
  });

  after(async () => {
    await web?.close();
  });

  const visits = (): Visit[] => [
    {
      name: 'dashboard',
      path: '/console/dashboard',
      ready: h1('Dashboard'),
      nav: consoleNav('Dashboard'),
      primary: link('Open the map'),
    },
    {
      name: 'map',
      path: '/console',
      ready: (p) => p.locator('#fleet-count').filter({ hasText: /^\d+ vehicles$/ }),
      nav: consoleNav('Map'),
      primary: (p) => p.getByRole('searchbox', { name: 'Search' }),
    },
    {
      name: 'vehicles',
      path: '/console/vehicles',
      ready: h1('Vehicles'),
      nav: consoleNav('Vehicles'),
      primary: link('Add vehicle'),
    },
    {
      name: 'edit vehicle',
      path: `/console/vehicles/${fleet.vehicles.M1}/edit`,
      ready: h1(/M-1/),
      nav: consoleNav('Vehicles'),
      primary: button('Save changes'),
    },
    {
      name: 'deactivate vehicle',
      path: `/console/vehicles/${fleet.vehicles.N3}/deactivate`,
      ready: h1('Deactivate N-3?'),
      nav: consoleNav('Vehicles'),
      primary: button('Deactivate N-3'),
    },
    {
      name: 'vehicle day',
      path: `/console/vehicles/${fleet.vehicles.M1}/history`,
      ready: (p) => p.locator('#history-status').filter({ hasNotText: 'Loading' }),
      nav: consoleNav('Map'),
      primary: button('Play'),
    },
    {
      name: 'geofences',
      path: '/console/geofences',
      ready: h1('Geofences'),
      nav: consoleNav('Geofences'),
      primary: link('Draw a geofence'),
    },
    {
      name: 'draw a geofence',
      path: '/console/geofences/new',
      ready: h1('Draw a geofence'),
      nav: consoleNav('Geofences'),
      primary: button('Create geofence'),
    },
    {
      name: 'devices',
      path: '/console/devices',
      ready: h1('Devices'),
      nav: consoleNav('Devices'),
      primary: button('Provision device'),
    },
    {
      name: 'drivers and users',
      path: '/console/users',
      ready: h1('Drivers & users'),
      nav: consoleNav('Drivers & users'),
      primary: link('Add user'),
    },
    {
      name: 'add a user',
      path: '/console/users/new',
      ready: h1('Add a user'),
      nav: consoleNav('Drivers & users'),
      primary: button('Add user'),
    },
    {
      name: 'groups',
      path: '/console/groups',
      ready: h1('Groups'),
      nav: consoleNav('Groups'),
      primary: button('Create group'),
    },
    {
      name: 'new dispatch',
      path: '/console/dispatches/new',
      ready: h1('New dispatch'),
      nav: consoleNav('Dispatches'),
      primary: (p) => p.getByRole('button', { name: 'Create dispatch', exact: true }).last(),
    },
    {
      name: 'reports',
      path: '/console/reports',
      ready: h1('Reports'),
      nav: consoleNav('Reports'),
      primary: button('Show'),
    },
    {
      name: 'alerts',
      path: '/console/alerts',
      ready: h1('Alerts'),
      nav: (p) => p.locator('#alerts-link'),
      primary: link('Alert settings'),
    },
    {
      name: 'alert settings',
      path: '/console/alerts/preferences',
      ready: h1('Alert settings'),
      nav: (p) => p.locator('#alerts-link'),
      primary: button('Save'),
    },
    {
      name: 'dispatches',
      path: '/console/dispatches',
      ready: h1('Dispatch board'),
      nav: consoleNav('Dispatches'),
      primary: link('New dispatch'),
    },
    {
      name: 'hours of service',
      path: '/console/hos',
      ready: h1('Hours of service'),
      nav: consoleNav('Hours of service'),
      primary: button('Show'),
    },
    {
      name: 'IFTA',
      path: '/console/ifta',
      ready: h1(/^IFTA/),
      nav: consoleNav('IFTA'),
      primary: button('Show'),
    },
    {
      name: 'API keys',
      path: '/console/api-keys',
      ready: h1('API keys'),
      nav: consoleNav('API keys'),
      primary: button('Create API key'),
    },
    {
      name: 'installed apps',
      path: '/fleet/apps',
      ready: h1(/^Apps installed/),
      nav: consoleNav('Apps'),
      primary: button(/^Remove /),
      // The developer portal has sessions of its own. Its sign-in page is the fleet's sign-in page with
      // other words (src/http/oauth/views/flow-pages.ts signInPage), which is checked last.
      then: async (page) => {
        await page.goto(web.base + '/developers/sign-in');
        await page.getByLabel('Email').fill(developer);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
      },
    },
    {
      name: 'developer apps',
      ready: h1('Your applications'),
      primary: link('Register an application'),
      then: (page) => page.getByRole('link', { name: 'Register an application' }).click(),
    },
    {
      name: 'register an application',
      ready: h1('Register an application'),
      primary: button('Register'),
      then: async (page) => {
        await page.getByLabel(/^Application name/).fill('Route Sync');
        await page.getByLabel(/^Redirect URIs/).fill('https://client.example/callback');
        await page.getByLabel('All of Vehicles', { exact: false }).check();
        await page.getByRole('button', { name: 'Register' }).click();
      },
    },
    {
      name: 'application',
      ready: h1('Route Sync'),
      primary: button('Rotate secret'),
      then: async (page) => {
        await page.goto(web.base + '/console/dashboard');
        await page.getByRole('button', { name: 'Sign out' }).click();
      },
    },
    {
      name: 'sign-in',
      ready: h1('Sign in'),
      primary: button('Sign in'),
    },
  ];

  /** Every page at one width; what is wrong, by page (empty when nothing is). */
  async function check(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
    const page = await web.signedIn(fleet.admin, '/console/dashboard', { viewport, colorScheme });
    const found: Record<string, unknown[]> = {};
    const note = (name: string, what: unknown[]) => {
      if (what.length) found[name] = [...(found[name] ?? []), ...what];
    };
    const visit = async (v: Visit) => {
      if (v.path) await page.goto(web.base + v.path);
      await v.ready(page).waitFor();
      note(v.name, await axeViolations(page));
      const wide = await page.evaluate(() => {
        const e = document.scrollingElement!;
        return { scroll: e.scrollWidth, client: e.clientWidth };
      });
      if (wide.scroll > wide.client) note(v.name, [`scrolls sideways: ${wide.scroll} px in ${wide.client} px`]);
      note(v.name, await keyboardProblems(page, v.nav?.(page).first(), v.primary(page).first()));
      await v.then?.(page);
    };
    for (const v of visits()) await visit(v);
    note('script errors and CSP violations', web.problemsOf(page));
    await page.context().close();
    return found;
  }

  // The pages do not depend on the database: with both databases each width is checked once, the
  // desktop on SQLite and the phone on PostgreSQL (CI's time budget); with SQLite alone, both there.
  const both = dialects().length === 1;
  if (both || dialect === 'sqlite')
    test('at 1280 px, light', async () => {
      assert.deepEqual(await check(DESKTOP, 'light'), {});
    });

  if (both || dialect === 'postgres')
    test('at 390 px, dark', async () => {
      assert.deepEqual(await check(PHONE, 'dark'), {});
    });
});
