/**
 * The client's side of the work bench at real volume (2,000 generated requests): Track My Request
 * searched, filtered, sorted and scrolled like a page; the results summary and its print; an expired
 * session that sends the user to log in and back.
 */
import { systemClock } from '../../server/clock.js';
import { createClientAccount } from '../../server/services/clients.js';
import { pdfText } from '../helpers/pdfText.js';
import { readLoginCode, signIn, signInAs } from './auth.js';
import { expectAccessibleAtBothWidths, expectNoAxeViolations } from './checks.js';
import type { Lab } from './fixtures.js';
import { seedRequests, withServerDb } from './serverDb.js';
import { expect, test, VOLUME } from './volumeFixtures.js';

const PAGE_SIZE = 50;

/** A client of its own holding every generated request: its track list is 2,000 long. */
async function busyClient(lab: Lab, name: string): Promise<{ email: string; password: string }> {
  const account = { email: `${name}@client.test`, password: `${name}-password` };
  await withServerDb(lab, async (db) => {
    const user = await createClientAccount(
      db,
      systemClock,
      { username: name, firstName: 'Busy', lastName: 'Client', contactNumber: '639171113333', verified: true, ...account },
      { companyName: 'Busy Meats Corp.', ltoNo: 'LTO-BUSY', classification: 'Exporter' },
    );
    const volumeClients = db('users').where('email', 'like', 'volume-client-%@volume.lab').select('id');
    await db('requests').whereIn('client_user_id', volumeClients).update({ client_user_id: user.id });
  });
  return account;
}

test.describe("the client's work bench at volume", () => {
  test.describe.configure({ timeout: 420_000 });

  test('Track My Request: search by control number or lot, status filter with counts, sort, a rejection reason, and the page scrolls', async ({ page, lab, browser }) => {
    const account = await busyClient(lab, 'busy-tracker');
    const { userId } = await signIn(page, lab, account.email, account.password);
    const own = await withServerDb(lab, (db) => db('requests').where('client_user_id', Number(userId)).select('id', 'status', 'control_number', 'lot_batch_no'));
    expect(own.length).toBeGreaterThanOrEqual(VOLUME);
    const byStatus = (status: string) => own.filter((r) => r.status === status);

    // The laboratory rejects one, with a reason (through the desk's own call).
    const target = byStatus('PENDING_REVIEW')[0];
    const desk = await browser.newContext({ baseURL: lab.baseURL });
    const deskPage = await desk.newPage();
    await signInAs(deskPage, lab, lab.demo.staff);
    const rejected = await deskPage.request.put(`/requests/reject/${target.id}`, { data: { reason: 'The samples arrived thawed.' } });
    expect(rejected.status()).toBe(200);
    await desk.close();
    await withServerDb(lab, (db) => db('requests').where('id', target.id).update({ lot_batch_no: 'LOT-THAWED-1' }));
    const rejectedCount = byStatus('REJECTED').length + 1;

    await page.goto(`/track-my-request/${userId}`);
    await expect(page.getByText('Drag the sides of the container to scroll!')).toBeVisible();
    const rows = page.locator('.track-list tbody tr');
    await expect(rows).toHaveCount(PAGE_SIZE);
    await expect(page.getByRole('columnheader')).toHaveText(['Control Number', 'Submission Date', 'Status', 'Lot', 'Tests', 'Expected Date']);
    const status = page.getByRole('combobox', { name: 'Status' });
    await expect(status.locator('option').first()).toHaveText(`All statuses (${own.length})`);
    await expect(status.locator('option', { hasText: 'REJECTED' })).toHaveText(`REJECTED (${rejectedCount})`);
    await expectAccessibleAtBothWidths(page);

    // The wheel over the list scrolls the page, not a box inside it; so does a drag (SPEC's hint).
    const list = page.locator('.track-list');
    expect(await list.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    const cell = rows.nth(3).getByRole('cell').nth(1);
    const box = (await cell.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.evaluate(() => window.scrollTo(0, 0));
    const dragFrom = (await cell.boundingBox())!;
    await page.mouse.move(dragFrom.x + dragFrom.width / 2, dragFrom.y + dragFrom.height / 2);
    await page.mouse.down();
    await page.mouse.move(dragFrom.x + dragFrom.width / 2, dragFrom.y - 150, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(page).toHaveURL(`/track-my-request/${userId}`);

    // Search by control number, then by lot: the counts follow the search.
    const search = page.getByRole('searchbox', { name: 'Search by control number or lot' });
    const released = byStatus('RELEASED')[0];
    await search.fill(released.control_number);
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('RELEASED');
    await expect(status.locator('option').first()).toHaveText('All statuses (1)');
    await search.fill('lot-thawed');
    await expect(rows).toHaveCount(1);
    const row = rows.first();
    await expect(row).toContainText('LOT-THAWED-1');
    await expect(row).toContainText('Reason: The samples arrived thawed.');
    await expect(row.getByRole('cell').nth(5)).toHaveText('—');
    await search.fill('');

    // Filter by status: only rejected requests, each without an expected date.
    await status.selectOption('REJECTED');
    await expect(rows).toHaveCount(Math.min(PAGE_SIZE, rejectedCount));
    for (const text of await rows.locator('td:nth-child(3)').allTextContents()) expect(text).toMatch(/^REJECTED/);
    for (const text of await rows.locator('td:nth-child(6)').allTextContents()) expect(text).toBe('—');

    // Sorted by expected date: the soonest first, and the requests being tested show theirs.
    await status.selectOption('FOR_TESTING');
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('urgent');
    const soonest = await withServerDb(lab, (db) =>
      db('requests').where({ client_user_id: Number(userId), status: 'FOR_TESTING' }).orderBy([{ column: 'due_date' }, { column: 'id' }]).first('control_number'),
    );
    await expect(rows.first().getByRole('cell').first()).toContainText(soonest.control_number);
    await expect(rows.first().getByRole('cell').nth(5)).not.toHaveText('—');
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect(rows).toHaveCount(Math.min(2 * PAGE_SIZE, byStatus('FOR_TESTING').length));
    await expectAccessibleAtBothWidths(page);
  });

  test('Results: a summary per sample on top, positives as a warning, and a clean print', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.client);
    const [released] = await seedRequests(lab, [
      {
        tests: ['eColi', 'salmonellaSp', 'dog'],
        status: 'RELEASED',
        samples: ['Chicken breast', 'Chicken liver'],
        result: (position, code) =>
          position === 1 && code === 'salmonellaSp'
            ? { value: 'Detected', remark: 'positive', analysisDate: '2026-03-08' }
            : { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-09' },
      },
    ]);
    await page.goto(`/request-results/${userId}/${released.requestId}`);
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('1 of 2 samples have a positive finding');
    const first = summary.getByRole('row', { name: /Sample 1: Chicken breast/ });
    const warning = first.getByText('Positive: Salmonella sp.');
    await expect(warning).toBeVisible();
    await expect(warning).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expect(summary.getByRole('row', { name: /Sample 2: Chicken liver/ })).toContainText('No positive finding');
    // The summary comes first, before the results of each family.
    await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Summary');
    // In the detailed results too, a positive is the amber warning, never the green badge.
    const detail = page.getByRole('region', { name: 'Microbiology Tests' }).getByRole('row', { name: /Salmonella sp\./ }).first();
    await expect(detail.getByText('Positive')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expectAccessibleAtBothWidths(page);

    // Print opens the browser's print dialog ...
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void ((window as unknown as { printed: number }).printed += 1);
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    // ... and the page prints as the summary and the results, without the portal around them.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeHidden();
    await expect(summary).toBeVisible();
    const printed = await pdfText(await page.pdf({ format: 'A4' }));
    expect(printed).toContain('Summary');
    expect(printed).toContain('Positive: Salmonella sp.');
    expect(printed).toContain(`Control Number: ${released.controlNumber}`);
    expect(printed).toContain('Molecular Biology Tests');
    for (const absent of ['Log out', 'All Rights Reserved', 'Timeline', 'Print']) expect(printed).not.toContain(absent);
  });

  test('an expired session sends the user to log in with a message, and back to the same page after the code', async ({ page, lab }) => {
    const { email, password } = lab.demo.client;
    await seedRequests(lab, [{ tests: ['eColi'], status: 'FOR_TESTING' }]);
    const { userId } = await signInAs(page, lab, lab.demo.client);
    const track = `/track-my-request/${userId}`;
    await page.goto(track);
    await expect(page.locator('.track-list tbody tr').first()).toBeVisible();

    // The session ends on the server; the next call (a filter) finds it gone.
    await withServerDb(lab, (db) => db('sessions').del());
    await page.getByRole('combobox', { name: 'Status' }).selectOption('RELEASED');
    // The filter is part of the page's address, so the user comes back to the filtered list.
    const filtered = `${track}?status=RELEASED`;
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(filtered)}`);
    await expect(page.getByRole('alert')).toHaveText('Your session has expired');
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await expectNoAxeViolations(page, { atLeast: 'serious' });

    // Logging in, code step included, comes back to the page.
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    const mark = lab.mailbox.mark();
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL(/\/tfa\/[^/?]+\?next=/);
    await page.getByLabel('Login code').fill(await readLoginCode(lab, email, mark));
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL(filtered);
    await expect(page.getByRole('heading', { level: 1, name: 'Track My Request' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('RELEASED');
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

    // A tab left idle while the session expired: coming back to it, the header no longer shows the user.
    await withServerDb(lab, (db) => db('sessions').del());
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(filtered)}`);
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);

    // A next page on another site is never followed: the login goes home.
    await page.goto('/login?next=//evil.example/steal');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    const again = lab.mailbox.mark();
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL(/\/tfa\/[^/?]+$/);
    await page.getByLabel('Login code').fill(await readLoginCode(lab, email, again));
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL(`/home/client/${userId}`);
  });
});
