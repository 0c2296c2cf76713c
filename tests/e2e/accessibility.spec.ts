/**
 * Every screen of every role, read by axe-core at 1280 and at 390 wide: no moderate, serious or critical
 * violation, and nothing wider than a phone. The journeys of the other specs check what each screen
 * does; this one only walks them all. Axe reads structure, so each screen holds a few requests in
 * every status (with results, one of them positive) rather than the 2,000 of the volume specs, which
 * scan their own screens at volume.
 */
import type { Page } from '@playwright/test';
import type { ResultSeed } from '../../fixtures/requests.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test, type DemoRole, type Lab } from './fixtures.js';
import { seedRequests } from './serverDb.js';

/** Console errors and uncaught exceptions of each page (a CSP refusal is a console error). */
const consoleErrors = new WeakMap<Page, string[]>();
function errorsOf(page: Page): string[] {
  let errors = consoleErrors.get(page);
  if (!errors) {
    const list: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && list.push(m.text())));
    page.on('pageerror', (e) => void list.push(e.message));
    consoleErrors.set(page, list);
    errors = list;
  }
  return errors;
}

/** Opens `path`, waits for its heading and its data, and scans it at both widths; the console stays clean. */
async function scan(page: Page, path: string, expectedError?: RegExp) {
  const errors = errorsOf(page);
  errors.length = 0;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first(), `heading of ${path}`).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page, { atLeast: 'moderate', wholePage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, { atLeast: 'moderate', wholePage: true });
  expect(errors.filter((e) => !expectedError?.test(e)), `console errors on ${path}`).toEqual([]);
}

const STATUSES: readonly RequestStatus[] = ['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED'];

/** Complete results, E. coli positive in the first sample: both remarks on the result screens. */
const onePositive = (sample: number, test: string): ResultSeed =>
  sample === 1 && test === 'eColi'
    ? { value: 'Detected', remark: 'positive', analysisDate: '2026-03-04' }
    : { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-04' };

/**
 * Two requests of the demo client in every status, with tests of all three disciplines and two
 * samples; FOR_TESTING ones half entered. Answers the first request of each status.
 */
async function requestsInEveryStatus(lab: Lab): Promise<Record<RequestStatus, number>> {
  const seeded = await seedRequests(
    lab,
    STATUSES.flatMap((status) =>
      [0, 1].map((n) => ({
        tests: n === 0 ? ['eColi', 'betaLactams', 'dog'] : ['salmonellaSp', 'betaLactams'],
        samples: ['Chilled beef', 'Pork belly'],
        status,
        ...(status === 'FOR_TESTING' && n === 1 ? { result: (sample: number, test: string) => (sample === 1 ? onePositive(sample, test) : null) } : {}),
        ...(status === 'FOR_RELEASE' || status === 'RELEASED' ? { result: onePositive } : {}),
      })),
    ),
  );
  return Object.fromEntries(STATUSES.map((status, i) => [status, seeded[2 * i].requestId])) as Record<RequestStatus, number>;
}

const TESTER_DISCIPLINE: Partial<Record<DemoRole, string>> = { chemtester: 'chem', microbiotester: 'microbio', molbiotester: 'molbio' };

test.describe('every screen at 1280 and 390 wide', () => {
  // Up to 22 axe scans a test on a 2-core machine shared with other work.
  test.describe.configure({ timeout: 300_000 });

  test('public screens', async ({ page }) => {
    for (const path of ['/login', '/register', '/forget', '/tfaverify']) await scan(page, path);
    // The look-up of an unknown certificate is answered 404, which the browser itself logs.
    await scan(page, '/verify/no-such-report-token', /status of 404/);
  });

  test('client screens', async ({ page, lab }) => {
    const { PENDING_REVIEW: pending, RELEASED: released } = await requestsInEveryStatus(lab);
    const { userId } = await signInAs(page, lab, lab.demo.client);
    for (const path of [
      `/home/client/${userId}`,
      `/submit-a-request/${userId}`,
      `/track-my-request/${userId}`,
      `/request-review/${userId}/${pending}`,
      `/request-results/${userId}/${released}`,
      `/request-timeline/${userId}/${released}`,
      `/guide/${userId}`,
    ]) {
      await scan(page, path);
    }
  });

  test('desk screens', async ({ page, lab }) => {
    const { PENDING_REVIEW: pending, FOR_TESTING: testing, RELEASED: released } = await requestsInEveryStatus(lab);
    const { userId } = await signInAs(page, lab, lab.demo.staff);
    for (const path of [
      `/home/staff/${userId}`,
      `/pending-requests/${userId}`,
      `/request-details/${userId}/${pending}`,
      `/request-additional-info/${userId}/${pending}`,
      `/request-control-number/${userId}/${testing}`,
      `/for-release/${userId}`,
      `/released/${userId}`,
      `/receive-release-database/${userId}`,
      `/request-timeline/${userId}/${released}`,
      `/audit-trail/${userId}`,
      `/turnaround/${userId}`,
      `/specifications/${userId}`,
    ]) {
      await scan(page, path);
    }
  });

  for (const role of ['chemtester', 'microbiotester', 'molbiotester'] as const) {
    test(`${role} screens`, async ({ page, lab }) => {
      const d = TESTER_DISCIPLINE[role]!;
      await requestsInEveryStatus(lab);
      const { userId } = await signInAs(page, lab, lab.demo[role]);
      for (const path of [`/home/${role}/${userId}`, `/for-testing-${d}/${userId}`, `/test-results-${d}/${userId}`, `/testing-database-${d}/${userId}`]) {
        await scan(page, path);
      }
    });
  }
});
