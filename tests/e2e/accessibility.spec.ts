/**
 * Every screen of every role, at real volume (2,000 generated requests besides the demo data), read
 * by axe-core at 1280 and at 390 wide: no serious or critical violation, and nothing wider than a
 * phone. The journeys of the other specs check what each screen does; this one only walks them all.
 */
import type { Page } from '@playwright/test';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import type { DemoRole, Lab } from './fixtures.js';
import { seedRequests, withServerDb } from './serverDb.js';
import { expect, test } from './volumeFixtures.js';

/** Opens `path`, waits for its heading and its data, and scans it at both widths. */
async function scan(page: Page, path: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first(), `heading of ${path}`).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page, { atLeast: 'serious', wholePage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, { atLeast: 'serious', wholePage: true });
}

/** The demo client's own requests, one pending review and one released, for the client's screens. */
async function clientRequests(lab: Lab): Promise<{ pending: number; released: number }> {
  const [pending, released] = await seedRequests(lab, [
    { tests: ['eColi', 'betaLactams'], samples: ['Chilled beef', 'Pork belly'], status: 'PENDING_REVIEW' },
    { tests: ['eColi', 'betaLactams', 'dog'], samples: ['Chilled beef', 'Pork belly'], status: 'RELEASED' },
  ]);
  return { pending: pending.requestId, released: released.requestId };
}

/** The newest request in `status` among the 2,000 (every status has some). */
function requestIn(lab: Lab, status: RequestStatus): Promise<number> {
  return withServerDb(lab, async (db) => {
    const row = await db('requests').where({ status }).orderBy('id', 'desc').first('id');
    expect(row, `a request in ${status}`).toBeTruthy();
    return Number(row.id);
  });
}

const TESTER_DISCIPLINE: Partial<Record<DemoRole, string>> = { chemtester: 'chem', microbiotester: 'microbio', molbiotester: 'molbio' };

test.describe('every screen at 1280 and 390 wide', () => {
  test.describe.configure({ timeout: 300_000 });

  test('public screens', async ({ page }) => {
    for (const path of ['/login', '/register', '/forget', '/tfaverify', '/verify/no-such-report-token']) await scan(page, path);
  });

  test('client screens', async ({ page, lab }) => {
    const { pending, released } = await clientRequests(lab);
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
    const pending = await requestIn(lab, 'PENDING_REVIEW');
    const testing = await requestIn(lab, 'FOR_TESTING');
    const released = await requestIn(lab, 'RELEASED');
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
    ]) {
      await scan(page, path);
    }
  });

  for (const role of ['chemtester', 'microbiotester', 'molbiotester'] as const) {
    test(`${role} screens`, async ({ page, lab }) => {
      const d = TESTER_DISCIPLINE[role]!;
      const { userId } = await signInAs(page, lab, lab.demo[role]);
      for (const path of [`/home/${role}/${userId}`, `/for-testing-${d}/${userId}`, `/test-results-${d}/${userId}`, `/testing-database-${d}/${userId}`]) {
        await scan(page, path);
      }
    });
  }
});
