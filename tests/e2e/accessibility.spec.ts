/**
 * Every screen of every role, read by axe-core at 1280 and at 390 wide: no moderate, serious or critical
 * violation, and nothing wider than a phone. The journeys of the other specs check what each screen
 * does; this one only walks them all. Axe reads structure, so each screen holds a few requests in
 * every status (with results, one of them positive) rather than the 2,000 of the volume specs, which
 * scan their own screens at volume.
 */
import type { Page, Request } from '@playwright/test';
import type { ResultSeed } from '../../fixtures/requests.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test, type DemoRole, type Lab } from './fixtures.js';
import { seedRequests } from './serverDb.js';

/** What each page is watched for: its console errors and uncaught exceptions (a CSP refusal is a console error), and its requests still unanswered. */
interface Watch {
  errors: string[];
  pending: Set<Request>;
}
const watches = new WeakMap<Page, Watch>();
function watchOf(page: Page): Watch {
  let watch = watches.get(page);
  if (!watch) {
    const w: Watch = { errors: [], pending: new Set() };
    page.on('console', (m) => void (m.type() === 'error' && w.errors.push(m.text())));
    page.on('pageerror', (e) => void w.errors.push(e.message));
    page.on('request', (r) => void w.pending.add(r));
    page.on('requestfinished', (r) => void w.pending.delete(r));
    page.on('requestfailed', (r) => void w.pending.delete(r));
    watches.set(page, w);
    watch = w;
  }
  return watch;
}

/**
 * Opens `path`, waits for its heading and its data, and scans it at both widths; the console stays
 * clean. The data is there when no 'Loading...' is shown (every load shows one from the screen's
 * first render until its answer) and no request is unanswered: the same state as waiting for the
 * network to be idle, without the half second of quiet that wait adds to every screen.
 */
async function scan(page: Page, path: string, expectedError?: RegExp) {
  const { errors, pending } = watchOf(page);
  errors.length = 0;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first(), `heading of ${path}`).toBeVisible();
  await expect(page.getByText(/^Loading/), `loads of ${path}`).toHaveCount(0);
  await expect.poll(() => [...pending].map((r) => r.url()), `requests of ${path}`).toEqual([]);
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

  // The desk's eleven screens in three tests, so that the two workers share them: the database alone
  // takes as long as five other screens (axe's colour-contrast check of its charts and tables).
  test('desk screens: home and one request', async ({ page, lab }) => {
    const { PENDING_REVIEW: pending, FOR_TESTING: testing, RELEASED: released } = await requestsInEveryStatus(lab);
    const { userId } = await signInAs(page, lab, lab.demo.staff);
    for (const path of [
      `/home/staff/${userId}`,
      `/request-details/${userId}/${pending}`,
      `/request-additional-info/${userId}/${pending}`,
      `/request-control-number/${userId}/${testing}`,
      `/request-timeline/${userId}/${released}`,
      `/specifications/${userId}`,
    ]) {
      await scan(page, path);
    }
  });

  test('desk screens: lists and trails', async ({ page, lab }) => {
    await requestsInEveryStatus(lab);
    const { userId } = await signInAs(page, lab, lab.demo.staff);
    for (const path of [`/pending-requests/${userId}`, `/for-release/${userId}`, `/released/${userId}`, `/audit-trail/${userId}`, `/turnaround/${userId}`]) {
      await scan(page, path);
    }
  });

  test('desk screens: the database', async ({ page, lab }) => {
    await requestsInEveryStatus(lab);
    const { userId } = await signInAs(page, lab, lab.demo.staff);
    await scan(page, `/receive-release-database/${userId}`);
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
