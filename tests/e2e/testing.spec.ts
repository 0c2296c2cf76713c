/**
 * The testing portals (SPEC section 2 "Tester screens", section 5 "Saving test results"): a tester
 * enters results per sample, saves, finds them again after a reload and in Test Results; the
 * failure texts; the empty lists.
 */
import type { Locator, Page } from '@playwright/test';
import { QUEUE_PAGE_SIZE } from '../../server/domain/queue.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test } from './fixtures.js';
import { enterResult, expectRemark, forTestingRow, pageNotice, recordDialogs, remarkButton } from './flows.js';
import { seedRequests, setAside, setStatus, withServerDb } from './serverDb.js';

/** Presses the mouse on `target`, moves it `dx` pixels sideways and releases it. */
async function drag(page: Page, target: Locator, dx: number) {
  // The mouse only reaches what is on screen: other tests' requests may push the row below the fold.
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  const [x, y] = [box.x + Math.min(20, box.width / 2), box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

test.describe('testing portals', () => {
  test('a chemistry tester enters results for both samples, saves, and finds them after a reload and in Test Results', async ({ page, lab }) => {
    const [request] = await seedRequests(lab, [{ tests: ['betaLactams', 'chloramphenicol'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly'] }]);
    const controlNumber = request.controlNumber!;
    const dialogs = recordDialogs(page);
    const { userId } = await signInAs(page, lab, lab.demo.chemtester);

    await page.goto(`/home/chemtester/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Chemistry Testing Portal!' })).toBeVisible();
    for (const card of ['Test Results', 'Database']) await expect(page.getByRole('link', { name: card })).toBeVisible();
    await page.getByRole('link', { name: 'For Testing' }).click();
    await expect(page).toHaveURL(`/for-testing-chem/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'For Testing' })).toBeVisible();
    await expect(page.getByText('Drag the sides of the container to scroll!')).toBeVisible();
    for (const header of ['Control Number', 'tests', 'Sample Information', 'Save Changes']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }

    const row = forTestingRow(page, controlNumber);
    await row.getByRole('button', { name: 'View Sample Information' }).click();
    const info = page.locator(`#samples-${request.requestId}`);
    for (const text of ['Sample Type Description 1', 'Beef loin', 'Sample Type Description 2', 'Pork belly', 'Lot Batch No', 'LOT-001', 'Sampler Name', 'J. Sampler', 'Sample Source', 'Cold storage A', 'Production Date', 'Expiry Date', 'Sampling Date']) {
      await expect(info).toContainText(text);
    }
    const showTests = row.getByRole('button', { name: 'Show Chemistry Tests' });
    await expect(showTests).toBeEnabled();
    await expect(showTests).not.toHaveAttribute('title');
    await showTests.click();
    await expect(showTests).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator(`#tests-${request.requestId}`);
    await expect(panel.getByRole('heading', { name: 'Microbial Inhibition Test' })).toHaveCount(2);
    await expect(panel.getByRole('heading', { name: 'ELISA Tests' })).toHaveCount(2);
    // Only the ticked analytes have rows.
    await expect(page.getByLabel('Tetracyclines result, sample 1')).toHaveCount(0);

    await enterResult(page, 'Beta Lactams', 1, '0.2 ppm', '+', '2026-03-10');
    await enterResult(page, 'Beta Lactams', 2, 'Not detected', '-', '2026-03-10');
    await enterResult(page, 'Chloramphenicol', 1, '<LOD', '+');
    // The last click wins.
    await remarkButton(page, 'Chloramphenicol', 1, '-').click();
    await expectRemark(page, 'Chloramphenicol', 1, '-');
    await enterResult(page, 'Chloramphenicol', 2, '<LOD', '-', '2026-03-11');
    await expect(remarkButton(page, 'Beta Lactams', 1, '+')).toHaveCSS('background-color', 'rgb(43, 193, 146)');
    await expect(remarkButton(page, 'Beta Lactams', 2, '-')).toHaveCSS('background-color', 'rgb(232, 85, 87)');

    await expectNoAxeViolations(page, { atLeast: 'serious' });

    await row.getByRole('button', { name: 'Save' }).click();
    const status = row.getByRole('status');
    await expect(status).toHaveText('Changes saved successfully!');
    // The status message clears by itself (after 3 seconds).
    await expect(status).toHaveText('', { timeout: 6_000 });
    expect(dialogs).toEqual([]);

    // The stored results are read for the opened request alone, not the group lists of every open request.
    const resultReads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && /TestResults|getResult/.test(r.url())) resultReads.push(new URL(r.url()).pathname);
    });
    await page.reload();
    // Every chemistry result is in, so the request left the outstanding queue: show all of it.
    await page.getByLabel('Show', { exact: true }).selectOption('all');
    await forTestingRow(page, controlNumber).getByRole('button', { name: 'Show Chemistry Tests' }).click();
    await expect(page.getByLabel('Beta Lactams result, sample 1', { exact: true })).toHaveValue('0.2 ppm');
    expect(resultReads).toEqual([expect.stringMatching(new RegExp(`/getResult/${request.requestId}$`))]);
    await expect(page.getByLabel('Beta Lactams analysis date, sample 1', { exact: true })).toHaveValue('2026-03-10');
    await expect(page.getByLabel('Beta Lactams result, sample 2', { exact: true })).toHaveValue('Not detected');
    await expect(page.getByLabel('Chloramphenicol result, sample 1', { exact: true })).toHaveValue('<LOD');
    await expect(page.getByLabel('Chloramphenicol analysis date, sample 1', { exact: true })).toHaveValue('');
    await expectRemark(page, 'Beta Lactams', 1, '+');
    await expectRemark(page, 'Beta Lactams', 2, '-');
    await expectRemark(page, 'Chloramphenicol', 1, '-');

    // Complete, so it awaits release: Test Results lists it under For Release with its details.
    await page.goto(`/test-results-chem/${userId}`);
    const forRelease = page.getByRole('region', { name: 'For Release' });
    await forRelease.getByRole('button', { name: controlNumber }).click();
    const details = forRelease.locator(`#for-release-${request.requestId}-details`);
    await expect(details.getByRole('heading', { name: 'ELISA Tests' })).toBeVisible();
    await expect(details.getByRole('heading', { name: 'Microbial Tests' })).toBeVisible();
    for (const text of ['Beta Lactams', '0.2 ppm', 'Beta Lactams Remarks', 'Positive', 'Not detected', 'Chloramphenicol Remarks', 'Negative']) {
      await expect(details).toContainText(text);
    }
    // Read, the remarks speak one colour language: a positive a warning (amber), a negative neutral.
    await expect(details.getByText('Positive', { exact: true }).first()).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expect(details.getByText('Negative', { exact: true }).first()).toHaveCSS('background-color', 'rgb(238, 242, 245)');
    await expect(details).not.toContainText('Analysis Date');
    await expect(details).not.toContainText('Sample Id');
    // One at a time: a second click collapses it.
    await forRelease.getByRole('button', { name: controlNumber }).click();
    await expect(details).toHaveCount(0);
  });

  test('a failed save names the group and the server\'s reason; a request without samples is not saved', async ({ page, lab }) => {
    const [closing, sampleless] = await seedRequests(lab, [
      { tests: ['dog'], status: 'FOR_TESTING', samples: ['Ground meat'] },
      { tests: ['cat'], status: 'FOR_TESTING', samples: [] },
    ]);
    const dialogs = recordDialogs(page);
    const { userId } = await signInAs(page, lab, lab.demo.molbiotester);
    await page.goto(`/for-testing-molbio/${userId}`);

    // On a small tablet the list scrolls inside its box (on a phone it is cards, workbench.spec.ts);
    // the page itself never scrolls sideways.
    await page.setViewportSize({ width: 640, height: 740 });
    const row = forTestingRow(page, closing.controlNumber!);
    await row.getByRole('button', { name: 'Show Molecular Biology Tests' }).click();
    await enterResult(page, 'Dog', 1, 'Detected', '+');
    await expectNoHorizontalScroll(page);
    // A mouse drag scrolls the list twice as far as the pointer moves, except from an input.
    const list = page.locator('.testing-list');
    const scrollLeft = () => list.evaluate((el) => el.scrollLeft);
    await list.evaluate((el) => el.scrollTo({ left: 0 }));
    await drag(page, row.getByRole('rowheader'), -30);
    expect(await scrollLeft()).toBe(60);
    await drag(page, page.getByLabel('Dog result, sample 1', { exact: true }), 20);
    expect(await scrollLeft()).toBe(60);
    // Meanwhile the request is released by the desk: results can no longer change.
    await withServerDb(lab, (db) => setStatus(db, [closing.requestId], 'RELEASED'));
    await row.getByRole('button', { name: 'Save' }).click();
    const failure = `Error saving changes: Failed to save mol bio results: Results of request ${closing.controlNumber} can no longer be changed: it is RELEASED`;
    await expect(row.getByRole('status')).toHaveText(failure);
    // A failure also stays at the top of the page, as an alert, until dismissed.
    await expect(pageNotice(page, 'alert')).toHaveText(failure);

    await forTestingRow(page, sampleless.controlNumber!).getByRole('button', { name: 'Save' }).click();
    await expect(pageNotice(page, 'alert')).toHaveText('No sample ID found for this request');
    await page.getByRole('button', { name: 'Dismiss message' }).click();
    await expect(pageNotice(page, 'alert')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('Test Results lists the released requests a page at a time; Show more loads the next page from the keyboard', async ({ page, lab }) => {
    // Released in 2019, before anything else on this server: they end the list, past its first page.
    const seeded = await seedRequests(
      lab,
      Array.from({ length: 105 }, (_, i) => ({ tests: ['dog'], status: 'RELEASED' as const, submissionDate: new Date(Date.UTC(2019, 0, 2, 8, i)).toISOString() })),
    );
    const oldest = seeded[0].controlNumber!;
    const { userId } = await signInAs(page, lab, lab.demo.molbiotester);
    await page.goto(`/test-results-molbio/${userId}`);

    const released = page.getByRole('region', { name: 'Released' });
    const rows = released.getByRole('listitem');
    await expect(rows).toHaveCount(QUEUE_PAGE_SIZE);
    await expect(released.getByRole('button', { name: oldest, exact: true })).toHaveCount(0);

    const more = released.getByRole('button', { name: 'Show more' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(2 * QUEUE_PAGE_SIZE);
    // The keyboard goes on from the first request added.
    await expect(rows.nth(QUEUE_PAGE_SIZE).getByRole('button')).toBeFocused();
    while (await more.isVisible()) await more.click();
    await expect(released.getByRole('button', { name: oldest, exact: true })).toBeVisible();

    // A request from a later page opens its details like any other.
    await released.getByRole('button', { name: oldest, exact: true }).click();
    const details = released.locator(`#released-${seeded[0].requestId}-details`);
    await expect(details.getByRole('heading', { name: 'Molecular Biology Tests' })).toBeVisible();
    await expect(details).toContainText('Not detected');
    await expectNoAxeViolations(page, { atLeast: 'serious' });
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoHorizontalScroll(page);
  });

  test('shows the empty messages of For Testing and Test Results', async ({ page, lab }) => {
    await setAside(lab, ['FOR_TESTING', 'FOR_RELEASE', 'RELEASED'], async () => {
      const empty = [
        { discipline: 'chem', account: lab.demo.chemtester, text: 'There are no ongoing Chemistry tests. ' },
        { discipline: 'microbio', account: lab.demo.microbiotester, text: 'There are no ongoing Microbiology tests' },
        { discipline: 'molbio', account: lab.demo.molbiotester, text: 'There are no ongoing Molecular Biology tests. ' },
      ];
      for (const { discipline, account, text } of empty) {
        const { userId } = await signInAs(page, lab, account);
        await page.goto(`/for-testing-${discipline}/${userId}`);
        const message = page.locator('p.empty').filter({ hasText: 'There are no ongoing' });
        await expect(message).toBeVisible();
        // Quoted exactly, trailing space included.
        expect(await message.textContent()).toBe(text);
      }
      await page.goto(`/test-results-molbio/${(await signInAs(page, lab, lab.demo.molbiotester)).userId}`);
      await expect(page.getByRole('region', { name: 'For Release' })).toContainText('No requests for release at the moment.');
      await expect(page.getByRole('region', { name: 'Released' })).toContainText('No released requests at the moment.');
    });
  });
});
