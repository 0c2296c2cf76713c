/**
 * The receive-and-release desk at real volume (2,000 generated requests besides the demo data):
 * approve, then straight on to the next pending request; reject with a reason the client reads;
 * the Database year choices and its Month and Total columns at phone width; focus on each new
 * screen's heading. Every screen is scanned by axe at 1280 and 390 wide.
 */
import type { Page } from '@playwright/test';
import { signInAs } from './auth.js';
import { expectAccessibleAtBothWidths, expectNoHorizontalScroll } from './checks.js';
import { otherBrowser, pageNotice, recordDialogs, rejectWithReason } from './flows.js';
import { seedRequests, withServerDb } from './serverDb.js';
import { expect, test } from './volumeFixtures.js';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

test.describe('the desk at volume', () => {
  test.describe.configure({ timeout: 300_000 });

  test('approve, then Next pending request opens the oldest one left; reject it with a reason the client reads', async ({ page, lab, browser }) => {
    // The two oldest pending requests of the laboratory, the demo client's.
    const [first, second] = await seedRequests(lab, [
      { tests: ['eColi'], samples: ['Oldest: beef'], submissionDate: '2001-01-01T08:00:00.000Z' },
      { tests: ['dog'], samples: ['Second oldest: ground meat'], submissionDate: '2001-01-02T08:00:00.000Z' },
    ]);
    const dialogs = recordDialogs(page);
    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/home/staff/${staff.userId}`);

    // Each screen reached in the app starts at its heading.
    await page.getByRole('link', { name: 'Pending Requests', exact: true }).click();
    await expect(heading(page, 'Pending Requests')).toBeFocused();
    const firstRow = page.locator('.desk-table tbody tr').first();
    await expect(firstRow.locator(`a[href="/request-details/${staff.userId}/${first.requestId}"]`)).toHaveCount(1);
    await firstRow.locator('a').first().click();
    await expect(heading(page, 'Request Details')).toBeFocused();

    // The decision sits above the request.
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    const summary = page.getByRole('heading', { level: 2, name: 'Request', exact: true });
    expect((await approve.boundingBox())!.y).toBeLessThan((await summary.boundingBox())!.y);
    await expectAccessibleAtBothWidths(page);
    await approve.click();
    await expect(page).toHaveURL(`/request-control-number/${staff.userId}/${first.requestId}`);
    await expect(page.locator('.control-number-value')).toHaveText(/^\d{4}-\d{4}$/);
    await expectAccessibleAtBothWidths(page);

    // One call for one row, not the list.
    const calls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/requests/')) calls.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await page.getByRole('button', { name: 'Next pending request' }).click();
    await expect(page).toHaveURL(`/request-details/${staff.userId}/${second.requestId}`);
    await expect(heading(page, 'Request Details')).toBeFocused();
    await expect(page.getByText('Second oldest: ground meat')).toBeVisible();
    expect(calls[0]).toBe('/requests/queue/pending?limit=1&sort=oldest');

    // Reject, keyboard only: the dialog takes the focus and keeps it.
    const reject = page.getByRole('button', { name: 'Reject', exact: true });
    await reject.focus();
    await page.keyboard.press('Enter');
    // Named by company and submission day (a pending request has no control number yet), never its database id.
    const rejectTitle = 'Reject the request of Demo Meat Traders Inc., submitted January 2, 2001?';
    const dialog = page.getByRole('dialog', { name: rejectTitle });
    const reason = dialog.getByLabel('Reason for the rejection');
    await expect(reason).toBeFocused();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectAccessibleAtBothWidths(page);
    const mark = lab.mailbox.mark();
    await rejectWithReason(page, rejectTitle, 'Sample too small for species identification (2 g).');
    await expect(page).toHaveURL(`/home/staff/${staff.userId}`);
    await expect(pageNotice(page)).toHaveText('Request rejected successfully!');
    expect(dialogs).toEqual([]);
    const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes('rejected'), { after: mark });
    expect(mail.text).toContain('Reason: Sample too small for species identification (2 g).');

    const client = await otherBrowser(browser, lab, 'client');
    await client.page.goto(`/request-review/${client.user.userId}/${second.requestId}`);
    await expect(client.page.getByText('Rejected: Sample too small for species identification (2 g).')).toBeVisible();
    await expect(client.page.getByText('Expected Completion Date')).toHaveCount(0);
    await expectAccessibleAtBothWidths(client.page);
    await client.close();
  });

  test('For Release: a positive result reads as a warning; the reject dialog keeps and returns the focus', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [
      {
        tests: ['salmonellaSp'],
        status: 'FOR_RELEASE',
        samples: ['Chicken wings'],
        submissionDate: '2001-01-03T08:00:00.000Z',
        result: () => ({ value: 'Detected', remark: 'positive', analysisDate: '2026-03-04' }),
      },
    ]);
    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/home/staff/${staff.userId}`);
    await page.getByRole('link', { name: 'For Release', exact: true }).click();
    await expect(heading(page, 'For Release')).toBeFocused();
    await page.getByRole('searchbox').fill(request.controlNumber!);
    const item = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Control Number ${request.controlNumber}` }) });
    await expect(item.getByText('Positive finding')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await item.getByRole('button', { name: `Control Number ${request.controlNumber}` }).click();
    await expect(item.getByRole('row', { name: /Salmonella/ }).getByText('Positive')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expectAccessibleAtBothWidths(page);

    const reject = item.getByRole('button', { name: 'Reject', exact: true });
    await reject.click();
    const dialog = page.getByRole('dialog', { name: `Reject ${request.controlNumber}?` });
    await expect(dialog.getByLabel('Reason for the rejection')).toBeFocused();
    await expectAccessibleAtBothWidths(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(reject).toBeFocused();
  });

  test('the Database offers only years with data; Month and Total stay in view at phone width', async ({ page, lab }) => {
    const years = await withServerDb(lab, async (db) => {
      const rows: { y: string }[] = await db('report_counts').where('n', '>', 0).distinct(db.raw('substr(report_month, 1, 4) as y')).orderBy('y', 'desc');
      return rows.map((r) => r.y);
    });
    expect(years.length).toBeGreaterThan(0);
    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/home/staff/${staff.userId}`);
    await page.getByRole('link', { name: 'Database', exact: true }).click();
    await expect(page).toHaveURL(`/receive-release-database/${staff.userId}`);
    await expect(heading(page, 'Database')).toBeFocused();

    await expect(page.getByLabel('Year').locator('option')).toHaveText(years);
    const year = years.includes(String(new Date().getFullYear())) ? String(new Date().getFullYear()) : years[0];
    await expect(page.getByLabel('Year')).toHaveValue(year);
    const microbio = page.getByRole('region', { name: `Microbiology, ${year}` });
    await expect(microbio.getByRole('row')).toHaveCount(2 + 12);
    // The volume has positive findings: they read as warnings.
    await expect(microbio.locator('.report-positive').first()).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expectAccessibleAtBothWidths(page);

    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await microbio.boundingBox())!;
    await microbio.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => microbio.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const month = microbio.getByRole('columnheader', { name: 'Month' });
    const total = microbio.getByRole('columnheader', { name: 'Total' });
    const monthBox = (await month.boundingBox())!;
    const totalBox = (await total.boundingBox())!;
    // Scrolled to the far right, Month still sits at the left edge of the table and Total at its right.
    expect(monthBox.x).toBeGreaterThanOrEqual(box.x - 1);
    expect(monthBox.x).toBeLessThan(box.x + 8);
    expect(totalBox.x + totalBox.width).toBeLessThanOrEqual(box.x + box.width + 1);
    await microbio.evaluate((el) => el.scrollTo({ left: 0 }));
    await expect.poll(() => microbio.evaluate((el) => el.scrollLeft)).toBe(0);
    const totalAtStart = (await total.boundingBox())!;
    expect(totalAtStart.x + totalAtStart.width).toBeLessThanOrEqual(box.x + box.width + 1);
    // A row's first cell is the month, whatever the scroll.
    await expect(microbio.getByRole('rowheader').first()).toBeInViewport();
    await expectNoHorizontalScroll(page);
  });
});
