/**
 * The work bench at real volume (2,000 generated requests besides the demo data): the tester's
 * queue a page at a time, an honest Save of a whole request, drafts that survive a reload, and the
 * screens at desk and phone width.
 */
import { signInAs } from './auth.js';
import { expectAccessibleAtBothWidths, expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { forTestingRow, recordDialogs, remarkButton } from './flows.js';
import { seedRequests, withServerDb } from './serverDb.js';
import { expect, test } from './volumeFixtures.js';

const PAGE_SIZE = 50;

test.describe('the work bench at volume', () => {
  // Pages of 50 rows scanned by axe at two widths on a 2-core machine shared with other work.
  test.describe.configure({ timeout: 420_000 });
  test("a tester's queue: outstanding work a page at a time, search, and an honest Save of the whole request", async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi', 'salmonellaSp'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly'] }]);
    // A busy week's microbiology backlog on top of the generated history: more than one page.
    await seedRequests(lab, Array.from({ length: PAGE_SIZE }, () => ({ tests: ['coliformCount'], status: 'FOR_TESTING' as const })));
    const name = request.controlNumber!;
    const outstanding = await withServerDb(lab, (db) =>
      db('requests as r')
        .where('r.status', 'FOR_TESTING')
        .whereExists(db('analyses as a').select(db.raw('1')).whereRaw('a.request_id = r.id').where('a.result_group', 'microbio').whereNull('a.remark'))
        .count({ n: '*' }),
    );
    expect(Number(outstanding[0].n)).toBeGreaterThan(PAGE_SIZE);

    const dialogs = recordDialogs(page);
    const kinds: string[] = [];
    page.on('dialog', (d) => void kinds.push(d.type()));
    const { userId } = await signInAs(page, lab, lab.demo.microbiotester);
    await page.goto(`/for-testing-microbio/${userId}`);
    const rows = page.locator('.testing-table > tbody > tr:not(.panel-row)');
    await expect(rows).toHaveCount(PAGE_SIZE);
    await expectAccessibleAtBothWidths(page);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect(rows).toHaveCount(Math.min(2 * PAGE_SIZE, Number(outstanding[0].n)));

    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    await expect(rows).toHaveCount(1);
    const row = forTestingRow(page, name);
    await expect(row).toContainText('0/4 entered');
    await expect(row).toContainText('2 samples');

    // Nothing typed: the Save says so and writes nothing.
    const saveStatus = row.getByRole('status');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(saveStatus).toHaveText('Nothing to save');

    await row.getByRole('button', { name: 'Show Microbiology Tests' }).click();
    const panel = page.locator(`#tests-${request.requestId}`);
    const eColi1 = page.getByRole('group', { name: 'E.Coli, sample 1', exact: true });
    await page.getByLabel('E.Coli result, sample 1', { exact: true }).fill('<10 cfu/g');
    await expect(eColi1).toContainText('Unsaved');
    await expect(eColi1).toContainText('needs + or -');
    await remarkButton(page, 'E.Coli', 1, '-').click();
    await expect(eColi1).not.toContainText('needs + or -');
    await page.getByLabel('Salmonella sp. result, sample 1', { exact: true }).fill('Detected');

    // Another sort (as another search) loads the list again: meanwhile the open panel stays on screen,
    // the same elements with what was typed, never drawn again from nothing.
    await panel.evaluate((element) => {
      element.dataset.kept = 'yes';
    });
    await page.getByLabel('Sort', { exact: true }).selectOption('urgent');
    await expect(page).toHaveURL(/sort=urgent/);
    await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
    await expect(rows).toHaveCount(1);
    await expect(panel).toHaveAttribute('data-kept', 'yes');
    await expect(page.getByLabel('Salmonella sp. result, sample 1', { exact: true })).toHaveValue('Detected');

    // The draft survives a reload (which asks first) and is still marked unsaved.
    await page.reload();
    expect(kinds).toContain('beforeunload');
    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    await expect(row).toContainText('Unsaved entries');
    await row.getByRole('button', { name: 'Show Microbiology Tests' }).click();
    await expect(page.getByLabel('E.Coli result, sample 1', { exact: true })).toHaveValue('<10 cfu/g');
    await expect(eColi1).toContainText('Unsaved');
    const salmonella1 = page.getByRole('group', { name: 'Salmonella sp., sample 1', exact: true });
    await expect(salmonella1).toContainText('needs + or -');

    // At phone width each analyte row wraps inside the screen; the sticky Save is in reach.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    // The row is laid out again for the new width: measure it once it is there.
    await expect.poll(async () => {
      const box = await salmonella1.boundingBox();
      return box && { left: box.x >= 0, right: box.x + box.width <= 390 };
    }).toEqual({ left: true, right: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The panel's Save writes both entries in one call.
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') saves.push(new URL(r.url()).pathname);
    });
    await panel.getByRole('button', { name: `Save all results of ${name}` }).click();
    await expect(saveStatus).toHaveText('Changes saved successfully!');
    expect(saves).toEqual([`/results/request/${request.requestId}`]);
    await expect(eColi1).not.toContainText('Unsaved');
    // Saved without its + or -: kept, and still marked so the tester knows why it is not complete.
    await expect(salmonella1).toContainText('needs + or -');
    await expect(row).toContainText('1/4 entered');
    const stored = await withServerDb(lab, (db) => db('analyses').where({ request_id: request.requestId }).whereNotNull('value').orderBy('test_code').select('test_code', 'value', 'remark'));
    expect(stored).toEqual([
      { test_code: 'eColi', value: '<10 cfu/g', remark: 'negative' },
      { test_code: 'salmonellaSp', value: 'Detected', remark: null },
    ]);

    // A value entered by mistake is cleared from the screen.
    await page.getByRole('button', { name: 'Clear Salmonella sp. result, sample 1' }).click();
    await panel.getByRole('button', { name: `Save all results of ${name}` }).click();
    await expect
      .poll(() => withServerDb(lab, (db) => db('analyses').where({ request_id: request.requestId, test_code: 'salmonellaSp' }).whereNotNull('value')))
      .toEqual([]);
    await expect(saveStatus).toHaveText('Changes saved successfully!');
    await panel.getByRole('button', { name: `Save all results of ${name}` }).click();
    await expect(saveStatus).toHaveText('Nothing to save');
    expect(dialogs).toEqual([]);
  });

  test('the finished filter shows a completed request, and clearing a value sends it back to FOR TESTING', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['dog'], status: 'FOR_RELEASE', samples: ['Ground meat'] }]);
    const name = request.controlNumber!;
    const dialogs = recordDialogs(page);
    const { userId } = await signInAs(page, lab, lab.demo.molbiotester);
    await page.goto(`/for-testing-molbio/${userId}`);
    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    await expect(page.getByText('There are no ongoing Molecular Biology tests.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Show' }).selectOption('finished');
    const row = forTestingRow(page, name);
    await expect(row).toContainText('1/1 entered');
    await row.getByRole('button', { name: 'Show Molecular Biology Tests' }).click();
    await page.getByRole('button', { name: 'Clear Dog result, sample 1' }).click();
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByRole('status')).toHaveText('Changes saved successfully!');
    expect(dialogs).toEqual([]);
    await expect(row).toContainText('0/1 entered');
    expect((await withServerDb(lab, (db) => db('requests').where('id', request.requestId).first('status'))).status).toBe('FOR_TESTING');
  });

  test('staff: Pending and For Release a page at a time with search, filter, sort, CSV export and positives as a warning', async ({ page, lab }) => {
    const [pending] = await seedRequests(lab, [{ tests: ['dog'], status: 'PENDING_REVIEW', samples: ['Goat meat', 'Beef loin', 'Pork'] }]);
    // A busy week at the desk on top of the generated history: more than one page waits for review.
    await seedRequests(lab, Array.from({ length: PAGE_SIZE }, () => ({ tests: ['eColi'] })));
    await withServerDb(lab, (db) => db('requests').where('id', pending.requestId).update({ lot_batch_no: 'LOT-WORKBENCH-7' }));
    const [positive] = await seedRequests(lab, [
      { tests: ['eColi'], status: 'FOR_RELEASE', result: () => ({ value: 'Detected', remark: 'positive', analysisDate: '2026-03-10' }) },
    ]);
    const { userId } = await signInAs(page, lab, lab.demo.staff);

    await page.goto(`/pending-requests/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Pending Requests' })).toBeVisible();
    const rows = page.locator('.desk-table tbody tr');
    await expect(rows).toHaveCount(PAGE_SIZE);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(PAGE_SIZE);
    await expectAccessibleAtBothWidths(page);

    await page.getByRole('searchbox', { name: 'Search by company or lot' }).fill('lot-workbench-7');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('3');
    await expect(rows).toContainText('Molecular Biology');
    await page.getByRole('combobox', { name: 'Discipline' }).selectOption('chem');
    await expect(page.getByText('There are no pending requests as of the moment.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Discipline' }).selectOption('molbio');
    await expect(rows).toHaveCount(1);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV of the pending requests' }).click();
    const csv = await (await download).path().then((file) => import('node:fs/promises').then((fs) => fs.readFile(file!, 'utf8')));
    expect(csv.split('\r\n')[0]).toBe('Control number,Status,Company,Purpose,Lot,Samples,Tests,Submitted,Waiting since,Due date,Any positive,Released');
    expect(csv).toContain('LOT-WORKBENCH-7');

    await page.goto(`/for-release/${userId}`);
    await page.getByRole('searchbox', { name: 'Search by control number, company or lot' }).fill(positive.controlNumber!);
    const item = page.locator('.release-item');
    await expect(item).toHaveCount(1);
    const warning = item.getByText('Positive finding');
    await expect(warning).toBeVisible();
    await expect(warning).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expectAccessibleAtBothWidths(page);
  });

  test('unsaved entries: every way out asks first, in the page (or the browser\'s own prompt on reload and close)', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi'], status: 'FOR_TESTING', samples: ['Beef loin'] }]);
    const name = request.controlNumber!;
    // No alert or confirm may open; the browser's beforeunload question is answered as `unload` says.
    const dialogs: string[] = [];
    const native: string[] = [];
    // The browser's answers to those questions. The reload waits for the closing's answer: sent while
    // that question may still be open, it once never loaded (a loaded machine, 7 minutes).
    const answered: Promise<void>[] = [];
    let unload: 'stay' | 'leave' = 'stay';
    page.on('dialog', (d) => {
      if (d.type() !== 'beforeunload') return void dialogs.push(d.message()), void d.dismiss();
      native.push(d.type());
      answered.push(unload === 'stay' ? d.dismiss() : d.accept());
    });
    const { userId } = await signInAs(page, lab, lab.demo.microbiotester);
    await page.goto(`/home/microbiotester/${userId}`);
    await page.getByRole('link', { name: 'For Testing' }).click();
    const forTesting = `/for-testing-microbio/${userId}`;
    await expect(page).toHaveURL(forTesting);
    const search = page.getByRole('searchbox', { name: 'Search by control number' });
    await search.fill(name);
    // The search lives in the address (a history entry of its own); staying keeps it.
    const searched = new RegExp(`${forTesting}\\?q=${name}$`);
    await expect(page).toHaveURL(searched);
    await forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' }).click();
    const value = page.getByLabel('E.Coli result, sample 1', { exact: true });
    await value.fill('<10 cfu/g');

    const question = page.getByRole('dialog', { name: 'You have unsaved results. Leave this page and keep them only as a draft on this computer?' });
    const stay = async (how: 'button' | 'Escape') => {
      await expect(question.getByRole('button', { name: 'Stay on this page' })).toBeFocused();
      if (how === 'Escape') await page.keyboard.press('Escape');
      else await question.getByRole('button', { name: 'Stay on this page' }).click();
      await expect(question).toHaveCount(0);
      await expect(page).toHaveURL(searched);
      await expect(value).toHaveValue('<10 cfu/g');
    };
    // A link, the header's Home, Log out and the browser's back each ask, and staying keeps the entry.
    await page.getByRole('link', { name: 'Microbiology Testing Portal' }).click();
    await expectNoAxeViolations(page, { atLeast: 'moderate', wholePage: true });
    await stay('button');
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await stay('Escape');
    await page.getByRole('button', { name: 'Log out' }).click();
    await stay('button');
    // The browser's back first restores the list's view before the search, on the same page; the
    // next back leaves the page and asks.
    await page.goBack();
    await expect(page).toHaveURL(forTesting);
    await expect(question).toHaveCount(0);
    await page.goBack();
    await expect(question.getByRole('button', { name: 'Stay on this page' })).toBeFocused();
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(question).toHaveCount(0);
    await expect(page).toHaveURL(forTesting);
    await search.fill(name);
    await expect(page).toHaveURL(searched);
    // The panel may still be open from before (its state outlives the search): open it only if not.
    const show = forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' });
    await expect(show).toBeVisible();
    if ((await show.getAttribute('aria-expanded')) !== 'true') await show.click();
    await expect(value).toHaveValue('<10 cfu/g');
    // Closing the tab and reloading get the browser's own question (the only one allowed there).
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => native).toEqual(['beforeunload']);
    await Promise.all(answered);
    expect(page.isClosed()).toBe(false);
    unload = 'leave';
    await page.reload();
    expect(native).toEqual(['beforeunload', 'beforeunload']);

    // Leaving when the user says so: the entry is kept as a draft on this computer.
    await search.fill(name);
    await forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' }).click();
    await expect(value).toHaveValue('<10 cfu/g');
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await question.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(`/home/microbiotester/${userId}`);
    await page.goBack();
    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    await expect(forTestingRow(page, name)).toContainText('Unsaved entries');
    await forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' }).click();
    await expect(value).toHaveValue('<10 cfu/g');
    await page.getByRole('button', { name: 'Log out' }).click();
    await question.getByRole('button', { name: 'Leave' }).click({ timeout: 10_000 });
    await expect(page).toHaveURL('/login');
    expect(dialogs).toEqual([]);
  });

  test('unsaved entries and the browser\'s back and forward: Stay keeps the page and the entries, Leave moves one step', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi'], status: 'FOR_TESTING', samples: ['Beef loin'] }]);
    const name = request.controlNumber!;
    const dialogs = recordDialogs(page);
    const { userId } = await signInAs(page, lab, lab.demo.microbiotester);
    const home = `/home/microbiotester/${userId}`;
    const forTesting = `/for-testing-microbio/${userId}`;
    const searched = new RegExp(`${forTesting}\\?q=${name}$`);
    // Home, For Testing, its search, Home again; then back to the search, so there is a forward too.
    await page.goto(home);
    await page.getByRole('link', { name: 'For Testing' }).click();
    await expect(page).toHaveURL(forTesting);
    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    await expect(page).toHaveURL(searched);
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL(home);
    await page.goBack();
    await expect(page).toHaveURL(searched);
    await forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' }).click();
    const value = page.getByLabel('E.Coli result, sample 1', { exact: true });
    await value.fill('<10 cfu/g');

    const question = page.getByRole('dialog', { name: 'You have unsaved results. Leave this page and keep them only as a draft on this computer?' });
    const stay = question.getByRole('button', { name: 'Stay on this page' });
    // Forward asks; staying keeps the page, its search and the entry, and asks again next time.
    await page.goForward();
    await expect(stay).toBeFocused();
    await stay.click();
    await expect(question).toHaveCount(0);
    await expect(page).toHaveURL(searched);
    await expect(value).toHaveValue('<10 cfu/g');
    await page.goForward();
    await question.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(home);
    await expect(page.getByRole('link', { name: 'For Testing' })).toBeVisible();

    // Back to the bench: the draft comes back with its entry, and leaving it asks again.
    await page.goBack();
    await expect(page).toHaveURL(searched);
    const show = forTestingRow(page, name).getByRole('button', { name: 'Show Microbiology Tests' });
    await expect(show).toBeVisible();
    if ((await show.getAttribute('aria-expanded')) !== 'true') await show.click();
    await expect(value).toHaveValue('<10 cfu/g');
    // Back within the page (the search) does not ask; back off the page does, and Stay keeps it.
    await page.goBack();
    await expect(page).toHaveURL(forTesting);
    await expect(question).toHaveCount(0);
    await page.goBack();
    await expect(stay).toBeFocused();
    await stay.click();
    await expect(question).toHaveCount(0);
    await expect(page).toHaveURL(forTesting);
    await expect(page.getByRole('heading', { level: 1, name: 'For Testing' })).toBeVisible();
    // Leave goes back one step, to Home, not two (the login page before it).
    await page.goBack();
    await question.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(home);
    await expect(page.getByRole('link', { name: 'For Testing' })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(forTesting);
    expect(dialogs).toEqual([]);
  });

  test('the tester bench on a 390 px phone: cards, no sideways scroll, 44 px targets, one thumb or the keyboard', async ({ page, lab }, testInfo) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi', 'salmonellaSp'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly'] }]);
    const name = request.controlNumber!;
    await page.setViewportSize({ width: 390, height: 844 });
    const { userId } = await signInAs(page, lab, lab.demo.microbiotester);
    await page.goto(`/for-testing-microbio/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'For Testing' })).toBeVisible();
    await expect(page.getByText('Drag the sides of the container to scroll!')).toBeHidden();
    await page.getByRole('searchbox', { name: 'Search by control number' }).fill(name);
    const row = forTestingRow(page, name);
    await row.getByRole('button', { name: 'Show Microbiology Tests' }).click();
    const eColi2 = page.getByRole('group', { name: 'E.Coli, sample 2', exact: true });
    await expect(eColi2).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expect.poll(() => page.locator('.testing-list').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // One card per sample and analyte, each inside the screen.
    const cards = page.locator(`#tests-${request.requestId} .analyte-row`);
    await expect(cards).toHaveCount(4);
    for (const box of await cards.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    // Every control a thumb may need is at least 44 px each way.
    const small = await page.locator('main').evaluate((main) =>
      [...main.querySelectorAll<HTMLElement>('button, input, select, a[href]')]
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ el, box }) => box.width > 1 && box.height > 1 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.visually-hidden'))
        .filter(({ box }) => box.width < 44 || box.height < 44)
        .map(({ el, box }) => `${el.tagName} "${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}" ${Math.round(box.width)}x${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);
    await expectNoAxeViolations(page, { atLeast: 'moderate', wholePage: true });
    await page.screenshot({ path: testInfo.outputPath('bench-390.png'), fullPage: true });

    // The keyboard alone: type a result, press '-' with Space, save with Enter.
    await page.getByLabel('E.Coli result, sample 2', { exact: true }).focus();
    await page.keyboard.type('<10 cfu/g');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(remarkButton(page, 'E.Coli', 2, '-')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(remarkButton(page, 'E.Coli', 2, '-')).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: `Save all results of ${name}` }).focus();
    await page.keyboard.press('Enter');
    await expect(row.getByRole('status')).toHaveText('Changes saved successfully!');
    await expect(row).toContainText('1/4 entered');
  });

  test('a list that fails to load says so with Retry; an expired session goes to log in', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.staff);
    let failures = 1;
    await page.route('**/requests/queue/pending*', (route) => (failures-- > 0 ? route.fulfill({ status: 503, json: { message: 'The database is busy.' } }) : route.continue()));
    await page.goto(`/pending-requests/${userId}`);
    await expect(page.getByRole('alert')).toContainText('The pending requests could not be loaded: The database is busy.');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('.desk-table tbody tr').first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The session ends on the server (e.g. it expired): the next call sends the user to log in.
    await withServerDb(lab, (db) => db('sessions').del());
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('newest');
    await expect(page).toHaveURL(/\/login(\?next=.*)?$/);
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await expectNoAxeViolations(page, { atLeast: 'serious' });
  });
});
