/**
 * The portal shell (SPEC section 2 "Shell behaviour", section 6 route guard): header, footer,
 * login, session restore, redirects, log out, phone width, accessibility of the login screen.
 */
import type { Page } from '@playwright/test';
import { signInAs, storedLogin } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { LAB_NAME, expect, extractCode, test } from './fixtures.js';
import { recordDialogs } from './flows.js';

async function expectLoginScreen(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Log In' })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In', exact: true })).toBeVisible();
}

async function expectShell(page: Page) {
  await expect(page.getByRole('banner').getByText(LAB_NAME, { exact: true })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText('All Rights Reserved');
  await expect(page.getByRole('contentinfo')).toBeVisible();
}

/** Collects Content Security Policy violations the browser reports (the server sends a strict CSP). */
/**
 * CSP refusals: those the console shows, and those reported only as a `securitypolicyviolation`
 * event (Chrome's Issues panel, which Lighthouse reads), such as an eval probe caught in a try.
 */
function watchCsp(page: Page): () => Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  void page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...violations, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))];
}

test.describe('logged out', () => {
  for (const path of ['/home/client/1', '/pending-requests/1', '/for-testing-chem/1']) {
    test(`${path} redirects to the login screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expectLoginScreen(page);
      await expectShell(page);
      await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    });
  }

  test('an unknown path shows the login screen', async ({ page }) => {
    await page.goto('/no-such-page');
    await expectLoginScreen(page);
    await expectShell(page);
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
  });

  test('the home button leads to /login', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();
    await page.getByRole('banner').getByRole('button', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('login screen buttons and the password toggle', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Forget Password?' }).click();
    await expect(page).toHaveURL(/\/forget$/);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('a wrong password is refused with the login message, in the form', async ({ page, lab }) => {
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(lab.demo.client.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    const dialogs = recordDialogs(page);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText('Your password is incorrect or this account does not exist.');
    await expect(page).toHaveURL(/\/login$/);
    expect(dialogs).toEqual([]);
  });

  test('phone width: header and footer fit without horizontal scroll', async ({ page }) => {
    const cspViolations = watchCsp(page);
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/login', '/register']) {
      await page.goto(path);
      await expectShell(page);
      await expectNoHorizontalScroll(page);
    }
    // Checking the registration runs zod, whose probe for eval a strict CSP would report.
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.locator('form').getByRole('alert')).toBeVisible();
    expect(await cspViolations()).toEqual([]);
  });

  test('what Lighthouse checks beyond axe: language, viewport, title, description, robots.txt as text', async ({ page }) => {
    await page.goto('/login');
    await expectLoginScreen(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', 'width=device-width, initial-scale=1');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S/);
    await expect(page).toHaveTitle(/^Log In \| /);
    const robots = await page.request.get('/robots.txt');
    expect(robots.status()).toBe(200);
    expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
    expect(await robots.text()).toMatch(/^User-agent: \*$/m);
  });

  test('the login screen has no serious accessibility violations', async ({ page }) => {
    await page.goto('/login');
    await expectLoginScreen(page);
    await expectNoAxeViolations(page, { atLeast: 'serious', wholePage: true });
  });
});

test.describe('logged in', () => {
  test('client: header, own home, guard redirects, phone width', async ({ page, lab }) => {
    const cspViolations = watchCsp(page);
    const { userId, userType } = await signInAs(page, lab, lab.demo.client);
    expect(userType).toBe('client');
    const home = `/home/client/${userId}`;

    await page.goto(home);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expectShell(page);
    await expectNoAxeViolations(page, { atLeast: 'serious', wholePage: true });
    for (const [name, target] of [
      ['Submit a Request', `/submit-a-request/${userId}`],
      ['Track My Request', `/track-my-request/${userId}`],
      ['Guide', `/guide/${userId}`],
    ] as const) {
      await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', target);
    }

    // a card opens its screen; the home button comes back
    await page.getByRole('link', { name: 'Guide', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/guide/${userId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Guide' })).toBeVisible();
    await page.getByRole('banner').getByRole('button', { name: 'Home' }).click();
    await expect(page).toHaveURL(new RegExp(`${home}$`));

    // other roles' screens, other users' ids, public screens and unknown paths lead home
    const otherId = String(Number(userId) + 1000);
    for (const path of [
      `/pending-requests/${userId}`,
      `/home/staff/${userId}`,
      `/for-testing-chem/${userId}`,
      `/guide/${otherId}`,
      `/home/client/${otherId}`,
      '/login',
      '/register',
      `/tfa/${lab.demo.client.email}`,
      '/no-such-page',
    ]) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(new RegExp(`${home}$`));
    }

    // reloading keeps the session (confirmed with GET /me)
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(home);
    await expect(page.getByRole('link', { name: 'Submit a Request', exact: true })).toBeVisible();
    await expectShell(page);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    expect(await cspViolations()).toEqual([]);
  });

  test('staff: home with its cards; client screens redirect home', async ({ page, lab }) => {
    const { userId, userType } = await signInAs(page, lab, lab.demo.staff);
    expect(userType).toBe('staff');
    const home = `/home/staff/${userId}`;

    await page.goto(home);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome to the Receive and Release Portal, Staff!' }),
    ).toBeVisible();
    for (const [name, target] of [
      ['Pending Requests', `/pending-requests/${userId}`],
      ['For Release', `/for-release/${userId}`],
      ['Released', `/released/${userId}`],
      ['Database', `/receive-release-database/${userId}`],
      ['Specifications', `/specifications/${userId}`],
    ] as const) {
      await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', target);
    }

    await page.goto(`/pending-requests/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Pending Requests' })).toBeVisible();

    for (const path of [`/home/client/${userId}`, `/submit-a-request/${userId}`, `/test-results-molbio/${userId}`, '/login']) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(new RegExp(`${home}$`));
    }
  });

  test('the server session wins over a forged stored login; Log out ends both', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.client);
    // pretend to be someone else in local storage: GET /me restores the real user
    await page.evaluate(() => {
      localStorage.setItem('userType', 'staff');
      localStorage.setItem('userId', '999999');
    });
    await page.goto('/home/staff/999999');
    await expect(page).toHaveURL(new RegExp(`/home/client/${userId}$`));
    expect(await storedLogin(page)).toMatchObject({ userId, userType: 'client' });

    // Log out: back to /login, storage cleared, the server session gone
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expectLoginScreen(page);
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    expect(await storedLogin(page)).toEqual({ userId: null, userType: null, responseData: null });
    const me = await page.request.get('/me');
    expect(me.status()).toBe(401);

    // protected screens are closed again
    await page.goto(`/home/client/${userId}`);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a stale stored login without a server session is cleared: the session has expired', async ({ page }) => {
    // The stale login is in storage before the portal's first script runs, once: a portal page
    // opened earlier to write it could itself find the session gone (e.g. on becoming visible) and
    // clear it before the page under test loads.
    await page.addInitScript(() => {
      if (sessionStorage.getItem('staleLoginWritten')) return;
      sessionStorage.setItem('staleLoginWritten', '1');
      localStorage.setItem('userId', '1');
      localStorage.setItem('userType', 'client');
    });
    await page.goto('/home/client/1');
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/home/client/1')}`);
    await expect(page.getByRole('alert')).toHaveText('Your session has expired');
    await expectLoginScreen(page);
    expect(await storedLogin(page)).toEqual({ userId: null, userType: null, responseData: null });
  });
});

test('real login through the screens: password, e-mailed code, client home', async ({ page, lab }) => {
  const { email, password } = lab.demo.client;
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const mark = lab.mailbox.mark();
  await page.getByRole('button', { name: 'Log In', exact: true }).click();

  await expect(page).toHaveURL(/\/tfa\/[^/]+$/);
  expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/tfa/${email}`);
  const mail = await lab.mailbox.waitFor(email, (m) => extractCode(m.text) !== null, { after: mark });
  const code = extractCode(mail.text)!;

  await page.getByLabel('Login code').fill(code);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(/\/home\/client\/\d+$/);
  const userId = new URL(page.url()).pathname.split('/').pop()!;

  const meResponse = await page.request.get('/me');
  expect(meResponse.status()).toBe(200);
  const me = (await meResponse.json()) as { id: number; role: string; username: string | null; firstName: string };
  expect(String(me.id)).toBe(userId);
  expect(me.role).toBe('client');
  const name = me.username ?? me.firstName;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${name}!`);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  expect(await storedLogin(page)).toEqual({ userId, userType: 'client', responseData: `client/${userId}` });
});
