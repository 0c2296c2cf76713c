/**
 * The rest of the work bench's lists at real volume (2,000 generated requests besides the demo data,
 * volumeFixtures.ts): Test Results searched, paged, downloaded and reloaded from its address; the
 * audit trail paged by keyset with its filter in the address; Turnaround's chart, late list and
 * filters; an amended result marked where the desk reads it, and on the testers' Test Results (their
 * own discipline's results only). Each screen is checked with axe at 1280 and 390 px.
 */
import fs from 'node:fs/promises';
import type { Browser, Locator, Page } from '@playwright/test';
import { QUEUE_PAGE_SIZE } from '../../server/domain/queue.js';
import { signInAs } from './auth.js';
import { expectAccessibleAtBothWidths } from './checks.js';
import { seedRequests, withServerDb } from './serverDb.js';
import type { Lab } from './fixtures.js';
import { expect, test } from './volumeFixtures.js';

/** The control numbers a column or table shows, in order. */
const shownNumbers = (list: Locator) => list.evaluateAll((items) => items.map((b) => /\d{4}-\d{4,}/.exec(b.textContent ?? '')?.[0]));

/** The lines of the CSV a download link gives. */
async function downloaded(page: Page, link: Locator): Promise<string[]> {
  const download = page.waitForEvent('download');
  await link.click();
  return (await fs.readFile((await (await download).path())!, 'utf8')).trimEnd().split('\r\n');
}

/** A tester signed in a browser of its own, every call its pages make to the API afterwards recorded. */
async function testerBrowser(browser: Browser, lab: Lab, account: Lab['demo']['microbiotester']) {
  const context = await browser.newContext({ baseURL: lab.baseURL });
  const page = await context.newPage();
  const user = await signInAs(page, lab, account);
  const calls: string[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'fetch') calls.push(`${res.status()} ${new URL(res.url()).pathname}`);
  });
  return { page, calls, user, close: () => context.close() };
}

/** As the lists' search reads a text: case and hyphens ignored, in the control number, company or lot. */
const searched = (prefix: string) => {
  const like = `%${prefix.replace('-', '').toLowerCase()}%`;
  const contains = (column: string) => `replace(lower(${column}), '-', '') like ?`;
  return [`(${contains('r.control_number')} or ${contains('r.company_name')} or ${contains('r.lot_batch_no')})`, [like, like, like]] as const;
};

test.describe('the work bench lists at volume', () => {
  test.describe.configure({ timeout: 300_000 });

  test('Test Results: search by control number, page on, download each whole column as CSV, and reload the view from its address', async ({ page, lab }) => {
    // A control number prefix more than a page of released microbiology requests share, and both columns' lists for it, newest first.
    const { search, released, forRelease } = await withServerDb(lab, async (db) => {
      const list = (status: string, order: string, prefix: string) =>
        db('requests as r')
          .where('r.status', status)
          .whereExists(db('request_progress as g').select(db.raw('1')).whereRaw('g.request_id = r.id').where('g.scope', 'microbio'))
          .whereRaw(...searched(prefix))
          .orderBy([{ column: order, order: 'desc' }, { column: 'r.id', order: 'desc' }])
          .pluck('r.control_number');
      const years: string[] = (await db('requests').where('status', 'RELEASED').select(db.raw('distinct substr(control_number, 1, 4) as y'))).map((r: { y: string }) => r.y).sort().reverse();
      for (const prefix of years.flatMap((y) => [`${y}-00`, `${y}-0`])) {
        const releasedNumbers: string[] = await list('RELEASED', 'r.released_at', prefix);
        if (releasedNumbers.length > QUEUE_PAGE_SIZE) return { search: prefix, released: releasedNumbers, forRelease: (await list('FOR_RELEASE', 'r.submission_date', prefix)) as string[] };
      }
      throw new Error('no control number prefix shared by more than a page of released microbiology requests');
    });

    const tester = await signInAs(page, lab, lab.demo.microbiotester);
    await page.goto(`/test-results-microbio/${tester.userId}`);
    const releasedColumn = page.getByRole('region', { name: 'Released' });
    const forReleaseColumn = page.getByRole('region', { name: 'For Release' });
    const releasedRows = releasedColumn.getByRole('listitem');
    await expect(releasedRows).toHaveCount(QUEUE_PAGE_SIZE);

    await page.getByRole('searchbox', { name: 'Search by control number, company or lot' }).fill(search);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${search}(&|$)`));
    await expect.poll(() => shownNumbers(releasedRows.getByRole('button'))).toEqual(released.slice(0, QUEUE_PAGE_SIZE));
    await expect.poll(() => shownNumbers(forReleaseColumn.getByRole('listitem').getByRole('button'))).toEqual(forRelease.slice(0, QUEUE_PAGE_SIZE));
    if (forRelease.length === 0) await expect(forReleaseColumn).toContainText('No requests for release at the moment.');

    // Show more adds the next page, and the keyboard goes on from its first request.
    await releasedColumn.getByRole('button', { name: 'Show more' }).press('Enter');
    await expect.poll(() => shownNumbers(releasedRows.getByRole('button'))).toEqual(released.slice(0, 2 * QUEUE_PAGE_SIZE));
    await expect(releasedRows.nth(QUEUE_PAGE_SIZE).getByRole('button')).toBeFocused();

    // Each download is the whole searched column, in its order, not the rows shown.
    const releasedCsv = await downloaded(page, page.getByRole('link', { name: 'Download CSV of the released Microbiology requests' }));
    expect(releasedCsv.slice(1).map((l) => l.split(',')[0])).toEqual(released);
    const forReleaseCsv = await downloaded(page, page.getByRole('link', { name: 'Download CSV of the Microbiology requests for release' }));
    expect(forReleaseCsv.slice(1).map((l) => l.split(',')[0])).toEqual(forRelease);

    // Oldest first is a view of its own; the address brings the view back after a reload.
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
    await expect(page).toHaveURL(/sort=oldest/);
    await expect.poll(() => shownNumbers(releasedRows.getByRole('button'))).toEqual([...released].reverse().slice(0, QUEUE_PAGE_SIZE));
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search by control number, company or lot' })).toHaveValue(search);
    await expect.poll(() => shownNumbers(releasedRows.getByRole('button'))).toEqual([...released].reverse().slice(0, QUEUE_PAGE_SIZE));

    // A request opens its result details.
    await releasedRows.first().getByRole('button').first().click();
    await expect(releasedColumn.getByRole('heading', { name: 'Microbiology Tests' })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  });

  test('Audit trail: a filter in the address, paged by keyset with Show more, restored by back', async ({ page, lab }) => {
    const entries = 120;
    await withServerDb(lab, async (db) => {
      const rows = Array.from({ length: entries }, (_, i) => ({ at: `2026-02-03T10:${String(i % 60).padStart(2, '0')}:00.000Z`, action: 'bench.volume', details: JSON.stringify({ n: i }), ip: '10.0.0.1' }));
      for (let i = 0; i < rows.length; i += 60) await db('audit_log').insert(rows.slice(i, i + 60));
      // One entry of another action, newer: the unfiltered trail differs from the filtered one
      // whatever else this lab's trail holds.
      await db('audit_log').insert({ at: '2026-02-04T10:00:00.000Z', action: 'bench.other', details: JSON.stringify({ n: -1 }), ip: '10.0.0.1' });
    });
    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/audit-trail/${staff.userId}`);
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(50 + 1);

    await page.getByLabel('Action').fill('bench.volume');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/[?&]action=bench\.volume(&|$)/);
    await expect(page.getByRole('status')).toHaveText(`Showing 50 of ${entries} entries`);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect(page.getByRole('status')).toHaveText(`Showing 100 of ${entries} entries`);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect(page.getByRole('status')).toHaveText(`Showing ${entries} of ${entries} entries`);
    await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
    // Newest first, each entry once across the pages (ties on the minute by id).
    const numbers = await rows.locator('td:last-child').evaluateAll((cells) => cells.map((c) => JSON.parse(c.textContent ?? '{}').n as number));
    expect(new Set(numbers).size).toBe(entries);
    await expectAccessibleAtBothWidths(page);

    // Back returns to the unfiltered trail, with the form emptied; forward to the filter.
    await page.goBack();
    await expect(page).not.toHaveURL(/[?&]action=/);
    await expect(page.getByLabel('Action')).toHaveValue('');
    // The unfiltered trail again, with the entry the filter left out.
    await expect(page.getByRole('status')).not.toHaveText(`Showing 50 of ${entries} entries`);
    await expect(page.getByRole('table')).toContainText('bench.other');
    await page.goForward();
    await expect(page.getByLabel('Action')).toHaveValue('bench.volume');
    await expect(page.getByRole('status')).toHaveText(`Showing 50 of ${entries} entries`);
  });

  test('Turnaround: a chart per discipline and week, the late requests linked, and filters in the address with the CSV following them', async ({ page, lab }) => {
    const today = new Date().toISOString().slice(0, 10);
    const open = await withServerDb(lab, async (db) => {
      const count = async (late: boolean) => {
        const query = db('requests as r')
          .whereIn('r.status', ['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE'])
          .whereExists(db('request_progress as g').select(db.raw('1')).whereRaw('g.request_id = r.id').where('g.scope', 'microbio'));
        if (late) query.whereRaw("coalesce(r.due_date, '9999-12-31') < ?", [today]);
        const [{ n }] = await query.count({ n: '*' });
        return Number(n);
      };
      return { all: await count(false), late: await count(true) };
    });
    expect(open.all).toBeGreaterThan(QUEUE_PAGE_SIZE);

    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/turnaround/${staff.userId}`);
    for (const label of ['Microbiological', 'Chemical', 'Molecular Biology']) {
      await expect(page.getByRole('img', { name: new RegExp(`^${label}: requests per week of submission`) })).toBeVisible();
    }
    await page.getByRole('combobox', { name: 'Discipline' }).selectOption('microbio');
    await expect(page).toHaveURL(/discipline=microbio/);
    await expect(page.getByRole('img', { name: /requests per week of submission/ })).toHaveCount(1);
    // The chart's figures are also a table, a row per week.
    await page.getByText('Microbiological: the figures as a table').click();
    await expect(page.getByRole('group', { name: 'Microbiological per week' }).getByRole('row')).toHaveCount(12 + 1);

    // The late requests first, each linked to its details.
    if (open.late === 0) {
      await expect(page.getByText('No request is late.')).toBeVisible();
    } else {
      await expect(page.getByRole('status')).toHaveText(`Showing ${Math.min(open.late, QUEUE_PAGE_SIZE)} of ${open.late.toLocaleString('en-US')} late requests`);
      const lateRows = page.getByRole('table', { name: 'Late requests' }).getByRole('row');
      await expect(lateRows.nth(1)).toContainText('days late');
      const lateCsv = await downloaded(page, page.getByRole('link', { name: 'Download CSV of the late requests' }));
      expect(lateCsv).toHaveLength(open.late + 1);
      expect(lateCsv.slice(1).every((line) => Number(line.split(',').at(-1)) > 0)).toBe(true);
    }

    // Every open request of the discipline, a page at a time; the CSV holds the whole filtered list.
    await page.getByRole('combobox', { name: 'List' }).selectOption('open');
    await expect(page.getByRole('status')).toHaveText(`Showing ${QUEUE_PAGE_SIZE} of ${open.all.toLocaleString('en-US')} open requests`);
    const csv = await downloaded(page, page.getByRole('link', { name: 'Download CSV of the open requests' }));
    expect(csv).toHaveLength(open.all + 1);
    expect(csv.slice(1).every((line) => line.includes('Microbiological'))).toBe(true);
    await expectAccessibleAtBothWidths(page);

    // The address is the view: reloaded it shows the same discipline and list; a row opens its request.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Discipline' })).toHaveValue('microbio');
    await expect(page.getByRole('combobox', { name: 'List' })).toHaveValue('open');
    const first = page.getByRole('table', { name: 'Open requests' }).getByRole('row').nth(1).getByRole('link');
    const number = (await first.textContent())!;
    await first.click();
    await expect(page).toHaveURL(/\/request-details\//);
    await expect(page.getByText(number).first()).toBeVisible();
  });

  test('Released: an amended result is marked where the desk reads it (old and new reading, who, when, why)', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi'], status: 'FOR_RELEASE', samples: ['Beef loin'] }]);
    const staff = await signInAs(page, lab, lab.demo.staff);
    expect((await page.request.put(`/requests/approveRelease/${request.requestId}`, { data: { password: lab.demo.staff.password } })).status()).toBe(200);
    const amended = await page.request.post(`/requests/${request.requestId}/amendments`, {
      data: {
        reason: 'Count read from the wrong plate',
        password: lab.demo.staff.password,
        results: [{ sampleId: request.sampleIds[0], testCode: 'eColi', value: '2.0 x 10^1', remark: 'positive', analysisDate: '2026-03-03' }],
      },
    });
    expect(amended.status()).toBe(201);

    await page.goto(`/released/${staff.userId}?q=${request.controlNumber}`);
    await page.getByRole('button', { name: `Control Number ${request.controlNumber}` }).click();
    const row = page.locator('.release-results').getByRole('row', { name: /E\.Coli/ });
    await expect(row).toContainText('2.0 x 10^1');
    await expect(row.locator('.amended-note')).toHaveText(
      new RegExp(`^✎ Amended in ${request.controlNumber}-R2 on \\w+ \\d+, \\d{4} by .+: was Not detected, negative, now 2\\.0 x 10\\^1, positive\\. Reason: Count read from the wrong plate$`),
    );
    await expectAccessibleAtBothWidths(page);
  });

  test("Test Results: a tester sees the amendment of its own discipline's result (old and new reading, who, when, why), not the certificate", async ({ page, lab, browser }) => {
    const [request] = await seedRequests(lab, [
      {
        tests: ['eColi', 'betaLactams'],
        status: 'FOR_RELEASE',
        samples: ['Marks beef loin'],
        result: (_position, code) =>
          code === 'eColi' ? { value: '4.0 x 10^2', remark: 'positive', analysisDate: '2026-03-10' } : { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-11' },
      },
    ]);
    const controlNumber = request.controlNumber!;
    const signer = await withServerDb(lab, async (db) => {
      const u = await db('users').where('email', lab.demo.staff.email).first('first_name', 'last_name');
      return `${u.first_name} ${u.last_name}`;
    });

    // Staff release the request, then amend a microbiology and a chemistry result in the Released dialog, signing with a reason.
    const staff = await signInAs(page, lab, lab.demo.staff);
    expect((await page.request.put(`/requests/approveRelease/${request.requestId}`, { data: { password: lab.demo.staff.password } })).status()).toBe(200);
    await page.goto(`/released/${staff.userId}?q=${controlNumber}`);
    await page.getByRole('button', { name: `Control Number ${controlNumber}` }).click();
    await page.getByRole('button', { name: 'Amend results' }).click();
    const amend = page.getByRole('dialog', { name: `Amend the results of ${controlNumber}` });
    await amend.getByLabel('Result of sample 1 E.Coli').fill('Not detected');
    await amend.getByLabel('Remark of sample 1 E.Coli').selectOption('negative');
    await amend.getByLabel('Result of sample 1 Beta Lactams').fill('15 ppb');
    await amend.getByLabel('Remark of sample 1 Beta Lactams').selectOption('positive');
    await amend.getByLabel('Reason for the amendment').fill('Plate count transcribed from the wrong sample');
    await amend.getByLabel('Your password', { exact: true }).fill(lab.demo.staff.password);
    await amend.getByRole('button', { name: 'Sign and issue amendment' }).click();
    await expect(page.getByText(`Certificate ${controlNumber}-R2 issued; it replaces ${controlNumber}-R1.`)).toBeVisible();

    // The microbiology tester opens the request on Test Results: its E.Coli result is marked, the chemistry change is not shown.
    const micro = await testerBrowser(browser, lab, lab.demo.microbiotester);
    await micro.page.goto(`/test-results-microbio/${micro.user.userId}?q=${controlNumber}`);
    const released = micro.page.getByRole('region', { name: 'Released' });
    await released.getByRole('button', { name: controlNumber }).click();
    const details = released.getByRole('region', { name: 'Microbiology Tests' });
    await expect(details.getByRole('definition').filter({ hasText: 'Not detected' }).first()).toBeVisible();
    const note = details.locator('.amended-note');
    await expect(note).toHaveCount(1);
    await expect(note).toHaveText(
      new RegExp(`^✎ Amended in ${controlNumber}-R2 on \\w+ \\d+, \\d{4} by ${signer}: was 4\\.0 x 10\\^2, positive, now Not detected, negative\\. Reason: Plate count transcribed from the wrong sample$`),
    );
    await expect(released).not.toContainText('15 ppb');
    await expectAccessibleAtBothWidths(micro.page);
    // The marks came from the tester's own call; the certificate and its list of reports were never asked for, and nothing was refused.
    expect(micro.calls).toContain(`200 /requests/${request.requestId}/amendments`);
    expect(micro.calls.filter((c) => /\/reports$|certificate\.pdf|^4\d\d /.test(c))).toEqual([]);
    // One call per list, not per row: the requests' amendments are asked for only when one is opened.
    expect(micro.calls.filter((c) => c.endsWith('/amendments'))).toEqual([`200 /requests/${request.requestId}/amendments`]);
    await micro.close();

    // The chemistry tester sees its own Beta Lactams change, and not the E.Coli one; the amended value
    // was judged against Beta Lactams' specification, so the mark names the statement it gained.
    const chem = await testerBrowser(browser, lab, lab.demo.chemtester);
    await chem.page.goto(`/test-results-chem/${chem.user.userId}?q=${controlNumber}`);
    const chemReleased = chem.page.getByRole('region', { name: 'Released' });
    await chemReleased.getByRole('button', { name: controlNumber }).click();
    await expect(chemReleased.locator('.amended-note')).toHaveText(
      new RegExp(`^✎ Amended in ${controlNumber}-R2 on \\w+ \\d+, \\d{4} by ${signer}: was Not detected, negative, statement: none, now 15 ppb, positive, statement: does not conform\\. Reason: Plate count transcribed from the wrong sample$`),
    );
    await expect(chemReleased).not.toContainText('4.0 x 10^2');
    await chem.close();
  });
});
