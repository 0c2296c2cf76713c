/**
 * The Released list at real volume (2,000 generated requests besides the demo data): searched by
 * control number, paged on, downloaded as CSV (the whole filtered list, not the page shown), and the
 * view kept in the address, so a reload, a shared link and back/forward show it again.
 */
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { QUEUE_PAGE_SIZE } from '../../server/domain/queue.js';
import { signInAs } from './auth.js';
import { expectAccessibleAtBothWidths } from './checks.js';
import { withServerDb } from './serverDb.js';
import { expect, test } from './volumeFixtures.js';

/** The control numbers the list shows, in order. */
const shownNumbers = (page: Page) => page.locator('.release-item .release-number button').evaluateAll((buttons) => buttons.map((b) => /\d{4}-\d{4,}/.exec(b.textContent ?? '')?.[0]));

test.describe('the released list at volume', () => {
  test.describe.configure({ timeout: 300_000 });

  test('search by control number, page on, download the whole result as CSV, and reload the bookmarked view', async ({ page, lab }) => {
    // A control number prefix (a year and its first digits) that more than a page of released requests
    // share, and what the list must show for it: latest release first, ties by id.
    const { search, expected } = await withServerDb(lab, async (db) => {
      const yearRows: { y: string }[] = await db('requests').where('status', 'RELEASED').select(db.raw('distinct substr(control_number, 1, 4) as y'));
      const years = yearRows.map((r) => r.y).sort().reverse();
      for (const prefix of years.flatMap((y) => [`${y}-00`, `${y}-0`])) {
        // As the search reads: case and hyphens ignored.
        const like = `%${prefix.replace('-', '')}%`;
        const contains = (column: string) => `replace(lower(${column}), '-', '') like ?`;
        const rows: { control_number: string }[] = await db('requests')
          .where('status', 'RELEASED')
          .where((w) => w.whereRaw(contains('control_number'), [like]).orWhereRaw(contains('company_name'), [like]).orWhereRaw(contains('lot_batch_no'), [like]))
          .orderBy([{ column: 'released_at', order: 'desc' }, { column: 'id', order: 'desc' }])
          .select('control_number');
        if (rows.length > QUEUE_PAGE_SIZE) return { search: prefix, expected: rows.map((r) => r.control_number) };
      }
      throw new Error('no control number prefix shared by more than a page of released requests');
    });

    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/released/${staff.userId}`);
    await expect(page.locator('.release-item')).toHaveCount(QUEUE_PAGE_SIZE);

    await page.getByRole('searchbox', { name: 'Search by control number, company or lot' }).fill(search);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${search}(&|$)`));
    await expect.poll(() => shownNumbers(page)).toEqual(expected.slice(0, QUEUE_PAGE_SIZE));

    // The next page joins the first.
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => shownNumbers(page)).toEqual(expected.slice(0, 2 * QUEUE_PAGE_SIZE));

    // The download holds every request the search finds, in the list's order, not the rows shown.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV of the released requests' }).click();
    const csv = await fs.readFile((await (await download).path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Control number,Status,Company,Purpose,Lot,Samples,Tests,Submitted,Waiting since,Due date,Any positive,Released');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected);

    // Earliest release first is a view of its own: back returns to the latest first.
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
    await expect(page).toHaveURL(/sort=oldest/);
    await expect.poll(() => shownNumbers(page)).toEqual([...expected].reverse().slice(0, QUEUE_PAGE_SIZE));
    await page.goBack();
    await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('newest');
    await expect.poll(() => shownNumbers(page)).toEqual(expected.slice(0, QUEUE_PAGE_SIZE));

    // The address is the view: reloaded (or opened from a bookmark), it shows the same search.
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search by control number, company or lot' })).toHaveValue(search);
    await expect.poll(() => shownNumbers(page)).toEqual(expected.slice(0, QUEUE_PAGE_SIZE));
    await expectAccessibleAtBothWidths(page);
  });
});
