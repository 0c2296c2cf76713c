/**
 * Results judged against specifications (issue 26): staff set a stricter version of a limit and read
 * its history; a tester enters a value over it and sees "does not conform" before saving (the + follows
 * from the decision, the other sign is asked about); staff see the request's conformity in For Release
 * and release it; the client reads "does not conform" on the Results screen and in the certificate.
 * Staff and the chemistry tester then read it counted on their Database pages' statements of
 * conformity. And the staff form names every problem beside its field, then the server's refusal of
 * overlapping dates; the decision rule is chosen on the same screen.
 */
import type { Page } from '@playwright/test';
import { analytesOfGroup } from '../../server/domain/catalog.js';
import { conformityOf, type NonConformityReport } from '../../server/domain/conformityReport.js';
import { pdfText } from '../helpers/pdfText.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test } from './fixtures.js';
import { expectRemark, forTestingRow, newBrowser, pageNotice, recordDialogs, remarkButton, signRelease } from './flows.js';
import { seedRequests } from './serverDb.js';

/** This month (a result saved without an analysis date counts in the month it was saved) and its year. */
const month = new Date().toISOString().slice(0, 7);
const year = Number(month.slice(0, 4));

/** How many Ractopamine results of this month were judged "does not conform", as `page`'s account reads them. */
async function ractopamineNonConforming(page: Page): Promise<number> {
  const res = await page.request.get(`/api/reports/nonconformities?year=${year}`);
  expect(res.status()).toBe(200);
  return conformityOf((await res.json()) as NonConformityReport, { code: 'ractopamine' }, month).doesNotConform;
}

/**
 * On a Database page: the Chemical ELISA statements of conformity of this month, Ractopamine's "Does
 * not conform" count reading `count` (a warning, amber with ⚠) under its column headers.
 */
async function expectRactopamineNonConforming(page: Page, count: number) {
  await page.getByLabel('Year').selectOption(String(year));
  const section = page.getByRole('region', { name: 'Statements of conformity', exact: true });
  await expect(section.getByText(/^Loading/)).toHaveCount(0);
  const table = section.getByRole('region', { name: `Chemical ELISA ${year}: statements of conformity`, exact: true });
  const index = analytesOfGroup('chemElisa').findIndex((a) => a.code === 'ractopamine');
  const headers = table.getByRole('row');
  await expect(headers.nth(0).getByRole('columnheader').nth(index + 1)).toHaveText('Ractopamine');
  await expect(headers.nth(1).getByRole('columnheader').nth(3 * index)).toHaveText('Does not conform');
  const cell = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: month, exact: true }) }).getByRole('cell').nth(3 * index);
  await expect(cell).toHaveText(String(count));
  await expect(cell.locator('.report-positive')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
  return section;
}

/** The row of the specification in force for `analyte` (any scope) on the Specifications screen. */
const specRow = (page: Page, analyte: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: analyte, exact: true }) });

test('a value over a stricter limit does not conform: the tester sees it before saving, staff release it, the client reads it on screen and in the certificate', async ({ page, lab, browser }, testInfo) => {
  test.setTimeout(300_000);
  const dialogs = recordDialogs(page);
  const [request] = await seedRequests(lab, [{ tests: ['ractopamine'], samples: ['Pork shoulder for export'], status: 'FOR_TESTING' }]);
  const controlNumber = request.controlNumber!;

  // 1. Staff open Specifications from their home, find Ractopamine (the shipped Codex limit) and read its versions.
  const staff = await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/home/staff/${staff.userId}`);
  await page.getByRole('link', { name: 'Specifications', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Specifications' })).toBeVisible();
  await page.getByLabel('Analyte', { exact: true }).selectOption({ label: 'Ractopamine' });
  await expect(page).toHaveURL(/analyte=ractopamine/);
  const row = specRow(page, 'Ractopamine');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('≤ 10 µg/kg');
  await expect(row).toContainText('Codex Alimentarius');
  await row.getByRole('button', { name: /^History of Ractopamine/ }).click();
  const history = page.getByRole('region', { name: /^Versions of Ractopamine/ });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history).toContainText('Version 1: ≤ 10 µg/kg');

  // 2. They add version 2, stricter (5 µg/kg), in force from today; version 1 is kept.
  await row.getByRole('button', { name: /^New version of Ractopamine/ }).click();
  const form = page.getByRole('form', { name: 'New version of Ractopamine (now version 1)' });
  await expect(form.getByRole('heading', { name: 'New version of Ractopamine (now version 1)' })).toBeFocused();
  await expect(form.getByLabel('Analyte', { exact: true })).toBeDisabled();
  await form.getByLabel('Upper limit').fill('5');
  await form.getByLabel('Source').fill('Importing country requirement: ractopamine in pork at most 5 µg/kg');
  await form.getByRole('button', { name: 'Save specification' }).click();
  await expect(pageNotice(page)).toHaveText('Specification saved: Ractopamine, version 2.');
  await expect(specRow(page, 'Ractopamine')).toContainText('≤ 5 µg/kg');
  await specRow(page, 'Ractopamine').getByRole('button', { name: /^History of Ractopamine/ }).click();
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history).toContainText('Version 2: ≤ 5 µg/kg');
  await expect(history).toContainText('Version 1: ≤ 10 µg/kg');
  await expectNoAxeViolations(page, { atLeast: 'moderate' });
  await page.screenshot({ path: testInfo.outputPath('specifications.png'), fullPage: true });

  // This month's non-conforming Ractopamine results so far (other tests of this server may add some).
  const nonConformingBefore = await ractopamineNonConforming(page);

  // 3. The chemistry tester enters 7.5 µg/kg: under the old limit, over the new one.
  const tester = await newBrowser(browser, lab);
  const testerUser = await signInAs(tester.page, lab, lab.demo.chemtester);
  const bench = tester.page;
  const testerDialogs = recordDialogs(bench);
  await bench.goto(`/for-testing-chem/${testerUser.userId}`);
  await bench.getByRole('searchbox', { name: 'Search by control number' }).fill(controlNumber);
  await forTestingRow(bench, controlNumber).getByRole('button', { name: 'Show Chemistry Tests' }).click();
  const analyte = bench.getByRole('group', { name: 'Ractopamine, sample 1', exact: true });
  await expect(analyte).toContainText('Limit ≤ 5 µg/kg');
  await analyte.getByLabel('Value of Ractopamine, sample 1', { exact: true }).fill('7.5');
  await analyte.getByLabel('U (expanded uncertainty) of Ractopamine, sample 1', { exact: true }).fill('1.5');
  await analyte.getByLabel('k (coverage factor) of Ractopamine, sample 1', { exact: true }).fill('2');
  // Before anything is saved: the decision, its reason, the result text and the + that follow from it.
  await expect(analyte.locator('.finding-positive')).toHaveText('does not conform');
  await expect(analyte).toContainText('7.5 µg/kg ± 1.5 is above the limit 5 µg/kg');
  await expect(bench.getByLabel('Ractopamine result, sample 1', { exact: true })).toHaveValue('7.5 µg/kg ± 1.5 (k = 2)');
  await expectRemark(bench, 'Ractopamine', 1, '+');
  // The other sign is asked about, in the page; keeping the decision's + changes nothing.
  await remarkButton(bench, 'Ractopamine', 1, '-').click();
  const ask = bench.getByRole('dialog', { name: /^Ractopamine, sample 1: the decision is “does not conform”/ });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep +' }).click();
  await expect(ask).toHaveCount(0);
  await expectRemark(bench, 'Ractopamine', 1, '+');
  // "< LOQ" is a value of its own: it conforms (below 1 µg/kg, the LOQ); the number comes back after.
  await analyte.getByRole('button', { name: '< LOQ of Ractopamine, sample 1' }).click();
  await expect(analyte.locator('.finding-negative')).toHaveText('conforms');
  await expectRemark(bench, 'Ractopamine', 1, '-');
  await analyte.getByLabel('Value of Ractopamine, sample 1', { exact: true }).fill('7.5');
  await analyte.getByLabel('U (expanded uncertainty) of Ractopamine, sample 1', { exact: true }).fill('1.5');
  await analyte.getByLabel('k (coverage factor) of Ractopamine, sample 1', { exact: true }).fill('2');
  await expect(analyte.locator('.finding-positive')).toHaveText('does not conform');
  await expectRemark(bench, 'Ractopamine', 1, '+');
  await expectNoAxeViolations(bench, { atLeast: 'moderate' });
  await bench.screenshot({ path: testInfo.outputPath('bench-decision.png'), fullPage: true });
  await bench.getByRole('button', { name: `Save all results of ${controlNumber}` }).click();
  await expect(forTestingRow(bench, controlNumber).getByRole('status')).toHaveText('Changes saved successfully!');
  // Saved, the request awaits release: Test Results shows the stored decision with its reason.
  await bench.goto(`/test-results-chem/${testerUser.userId}`);
  const awaiting = bench.getByRole('region', { name: 'For Release' });
  await awaiting.getByRole('button', { name: controlNumber }).click();
  const details = awaiting.locator(`#for-release-${request.requestId}-details`);
  await expect(details).toContainText('Ractopamine Conformity');
  await expect(details.getByText('does not conform', { exact: true })).toHaveCSS('background-color', 'rgb(255, 241, 214)');
  await expect(details).toContainText('7.5 µg/kg ± 1.5 is above the limit 5 µg/kg');
  expect(testerDialogs).toEqual([]);
  await tester.close();

  // 4. Staff see the request's conformity in For Release, and each result's with its reason; they release it.
  await page.goto(`/for-release/${staff.userId}`);
  const item = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Control Number ${controlNumber}` }) });
  await expect(item.locator('.release-conformity')).toHaveText('Conformity: does not conform');
  await item.getByRole('button', { name: `Control Number ${controlNumber}` }).click();
  await expect(item.locator('.conformity-line')).toHaveText('Statement of conformity: does not conform');
  await expect(item.getByRole('row', { name: /Ractopamine/ })).toContainText('7.5 µg/kg ± 1.5 is above the limit 5 µg/kg');
  await signRelease(page, item, lab.demo.staff.password);
  await expect(pageNotice(page)).toHaveText('Request released successfully');
  // The staff's review of the request keeps its conformity once released.
  await page.goto(`/request-details/${staff.userId}/${request.requestId}`);
  const review = page.getByRole('region', { name: 'Results and conformity' });
  await expect(review.locator('.conformity-line')).toHaveText('Statement of conformity: does not conform');
  expect(dialogs).toEqual([]);

  // 5. The client reads "does not conform" on the Results screen and in the certificate.
  const client = await newBrowser(browser, lab);
  const clientUser = await signInAs(client.page, lab, lab.demo.client);
  await client.page.goto(`/request-results/${clientUser.userId}/${request.requestId}`);
  const summary = client.page.getByRole('region', { name: 'Summary' });
  await expect(summary.locator('.conformity-line')).toHaveText('Statement of conformity: does not conform');
  const results = client.page.getByRole('region', { name: 'Chemical ELISA Tests' });
  await expect(results.getByRole('row', { name: /Ractopamine/ })).toContainText('does not conform');
  await expect(results.getByRole('row', { name: /Ractopamine/ })).toContainText('7.5 µg/kg ± 1.5 (k = 2)');
  await expectNoAxeViolations(client.page, { atLeast: 'moderate' });
  await client.page.screenshot({ path: testInfo.outputPath('client-results.png'), fullPage: true });
  const [download] = await Promise.all([
    client.page.waitForEvent('download'),
    client.page.getByRole('region', { name: 'Certificates of analysis' }).getByRole('link', { name: `Download certificate ${controlNumber}-R1` }).click(),
  ]);
  const text = await pdfText(await download.path());
  // The statement of conformity per analyte: the rule, the specification's version and source, the statement.
  expect(text).toContain('Statement of conformity (ISO/IEC 17025 7.8.6)');
  expect(text).toContain('Decision rule: Simple acceptance');
  expect(text).toContain('Importing country requirement:');
  expect(text).toContain('(specification version 2)');
  expect(text).toContain('does not conform: 7.5');
  await client.close();

  // 6. Staff read the non-conformity on the Database page, counted for Ractopamine in this month ...
  await page.goto(`/home/staff/${staff.userId}`);
  await page.getByRole('link', { name: 'Database', exact: true }).click();
  await expect(page).toHaveURL(`/receive-release-database/${staff.userId}`);
  await expectRactopamineNonConforming(page, nonConformingBefore + 1);
  await expectNoAxeViolations(page, { atLeast: 'moderate' });
  await page.screenshot({ path: testInfo.outputPath('database-conformity.png'), fullPage: true });
  // ... and so does the chemistry tester, on their own discipline's Database page, which shows no other discipline's.
  const chemist = await newBrowser(browser, lab);
  const chemistUser = await signInAs(chemist.page, lab, lab.demo.chemtester);
  await chemist.page.goto(`/home/chemtester/${chemistUser.userId}`);
  await chemist.page.getByRole('link', { name: 'Database', exact: true }).click();
  await expect(chemist.page).toHaveURL(`/testing-database-chem/${chemistUser.userId}`);
  const testerSection = await expectRactopamineNonConforming(chemist.page, nonConformingBefore + 1);
  await expect(testerSection).not.toContainText('Microbiology');
  await expect(testerSection).not.toContainText('Molecular Biology');
  await expectNoAxeViolations(chemist.page, { atLeast: 'moderate' });
  await chemist.page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(chemist.page);
  await chemist.close();
});

test('the Specifications form names every problem beside its field, then the server refuses overlapping dates; the decision rule is chosen there', async ({ page, lab }) => {
  const dialogs = recordDialogs(page);
  const staff = await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/specifications/${staff.userId}`);
  await page.getByRole('button', { name: 'Add a specification' }).click();
  const form = page.getByRole('form', { name: 'Add a specification' });

  // Nothing filled in: every missing field says what to do, at once.
  await form.getByLabel('Source').fill('');
  await form.getByLabel('Valid from').fill('');
  await form.getByRole('button', { name: 'Save specification' }).click();
  await expect(form.getByRole('alert')).toHaveText('Please correct the 4 fields marked above.');
  await expect(form.getByLabel('Analyte', { exact: true })).toHaveAccessibleDescription('Choose the analyte.');
  await expect(form.getByRole('group', { name: 'Kind' })).toHaveAccessibleDescription('Choose the kind of specification.');
  await expect(form.getByLabel('Source')).toHaveAccessibleDescription('Name the source, e.g. the regulation and its annex.');
  await expect(form.getByLabel('Valid from')).toHaveAccessibleDescription('Enter the date the specification is in force from.');

  // A quantitative limit below its LOQ, with no unit, and a warning level that is not a number.
  await form.getByLabel('Analyte', { exact: true }).selectOption({ label: 'Corticosteroids' });
  await form.getByRole('radio', { name: 'Quantitative (a limit or a range)' }).check();
  await form.getByLabel('LOQ (limit of quantification)').fill('2');
  await form.getByLabel('Upper limit').fill('1');
  await form.getByLabel('Warning level').fill('high');
  await form.getByLabel('Source').fill('Regulation (EU) No 37/2010, Table 1 (dexamethasone)');
  await form.getByLabel('Valid from').fill('2020-01-01');
  await expect(form.getByRole('alert')).toHaveText('Please correct the 3 fields marked above.');
  await expect(form.getByLabel('Unit', { exact: true })).toHaveAccessibleDescription('Enter the unit the values are reported in, e.g. µg/kg.');
  await expect(form.getByLabel('Upper limit')).toHaveAccessibleDescription('The limit must not be below the LOQ.');
  await expect(form.getByLabel('Warning level')).toHaveAccessibleDescription('Enter a number of zero or more.');
  await expect(form.getByLabel('Upper limit')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, { atLeast: 'moderate' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Fixed, each problem goes; the server then refuses a second specification for the same scope and dates.
  await form.getByLabel('Unit', { exact: true }).fill('µg/kg');
  await form.getByLabel('Upper limit').fill('0.75');
  await form.getByLabel('LOQ (limit of quantification)').fill('0.5');
  await form.getByLabel('Warning level').fill('');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Save specification' }).click();
  await expect(form.getByRole('alert')).toContainText('The dates overlap version 1 of corticosteroids for the same scope');
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);

  // The decision rule: each explained; choosing one and saving it is told in the page (then set back).
  const rule = page.getByRole('group', { name: 'The laboratory judges every result by' });
  await expect(rule.getByRole('radio', { name: /Simple acceptance/ })).toBeChecked();
  await expect(rule.getByRole('radio', { name: /Guarded acceptance/ })).toHaveAccessibleDescription(/inconclusive in between/);
  await rule.getByRole('radio', { name: /Guarded acceptance/ }).check();
  await rule.getByRole('button', { name: 'Save decision rule' }).click();
  await expect(pageNotice(page)).toHaveText('Decision rule saved: Guarded acceptance (guard band w = U).');
  await expect(rule).toContainText('Guarded acceptance (guard band w = U) (in force)');
  await rule.getByRole('radio', { name: /Simple acceptance/ }).check();
  await rule.getByRole('button', { name: 'Save decision rule' }).click();
  await expect(pageNotice(page)).toHaveText('Decision rule saved: Simple acceptance.');
  expect(dialogs).toEqual([]);
});

test('a species of origin narrows a limit: staff add one for swine, a client states the species of each sample, staff and the tester see it and the tester is shown each sample its own limit', async ({ page, lab, browser }, testInfo) => {
  test.setTimeout(300_000);
  const dialogs = recordDialogs(page);

  // 1. Staff add a limit for Corticosteroids in pig meat: the screen offers the catalogue's nine species.
  const staff = await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/specifications/${staff.userId}`);
  await page.getByRole('button', { name: 'Add a specification' }).click();
  const form = page.getByRole('form', { name: 'Add a specification' });
  const species = form.getByLabel('Species of origin', { exact: true });
  await expect(species.getByRole('option')).toHaveText(['Any', 'Dog', 'Cat', 'Chicken', 'Buffalo', 'Cattle', 'Horse', 'Goat', 'Sheep', 'Swine']);
  await form.getByLabel('Analyte', { exact: true }).selectOption({ label: 'Corticosteroids' });
  await species.selectOption({ label: 'Swine' });
  await form.getByRole('radio', { name: 'Quantitative (a limit or a range)' }).check();
  await form.getByLabel('Unit', { exact: true }).fill('µg/kg');
  await form.getByLabel('LOQ (limit of quantification)').fill('0.25');
  await form.getByLabel('Upper limit').fill('0.5');
  await form.getByLabel('Source').fill('Laboratory policy for pig meat: dexamethasone at most 0.5 µg/kg');
  await form.getByLabel('Valid from').fill('2020-01-01');
  await form.getByRole('button', { name: 'Save specification' }).click();
  await expect(pageNotice(page)).toHaveText('Specification saved: Corticosteroids, version 1.');
  await page.getByLabel('Analyte', { exact: true }).selectOption({ label: 'Corticosteroids' });
  const rows = specRow(page, 'Corticosteroids');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Swine' })).toContainText('≤ 0.5 µg/kg');

  // 2. The client submits two samples, stating the species of each (the first by keyboard alone).
  const client = await newBrowser(browser, lab);
  const clientUser = await signInAs(client.page, lab, lab.demo.client);
  const submit = client.page;
  await submit.goto(`/submit-a-request/${clientUser.userId}`);
  await expect(submit.getByRole('region', { name: 'Client Information' })).toContainText('Demo Meat Traders Inc.');
  await submit.getByRole('radio', { name: 'Export' }).check();
  await submit.getByRole('radio', { name: 'Walk-in' }).check();
  await submit.getByLabel('Sample Type Description 1').fill('Pork shoulder');
  const species1 = submit.getByLabel('Species of Origin 1', { exact: true });
  await expect(species1).toHaveValue('');
  await expect(species1.getByRole('option', { selected: true })).toHaveText('Not stated');
  await submit.getByLabel('Sample Type Description 1').press('Tab');
  await expect(species1).toBeFocused();
  await submit.keyboard.type('Swine');
  await expect(species1).toHaveValue('swine');
  await submit.getByRole('button', { name: '+ Add Sample' }).click();
  await submit.getByLabel('Sample Type Description 2').fill('Beef rump');
  await submit.getByLabel('Species of Origin 2', { exact: true }).selectOption({ label: 'Cattle' });
  await submit.getByRole('checkbox', { name: 'Corticosteroids' }).check();
  await expectNoAxeViolations(submit, { atLeast: 'moderate' });
  await submit.getByRole('group', { name: '3 Sample Information' }).screenshot({ path: testInfo.outputPath('species-submit.png') });
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();
  await submit.getByRole('dialog', { name: 'Are you sure you want to submit this request?' }).getByRole('button', { name: 'Yes, submit' }).click();
  await expect(submit).toHaveURL(`/request-submitted/${clientUser.userId}`);
  await submit.goto(`/track-my-request/${clientUser.userId}`);
  await submit.getByRole('row').nth(1).getByRole('link').click();
  await expect(submit).toHaveURL(new RegExp(`/request-review/${clientUser.userId}/\\d+$`));
  const requestId = Number(/(\d+)$/.exec(submit.url())![1]);
  await expect(submit.getByRole('main')).toContainText('Pork shoulder (Species of Origin: Swine)');
  await expect(submit.getByRole('main')).toContainText('Beef rump (Species of Origin: Cattle)');
  await client.close();

  // 3. Staff read the species in the request's details and approve it.
  await page.goto(`/request-details/${staff.userId}/${requestId}`);
  await expect(page.getByRole('main')).toContainText('Pork shoulder (Species of Origin: Swine)');
  await expect(page.getByRole('main')).toContainText('Beef rump (Species of Origin: Cattle)');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page).toHaveURL(`/request-control-number/${staff.userId}/${requestId}`);
  const controlNumber = (await page.locator('.control-number-value').textContent())!;
  expect(controlNumber).toMatch(/^\d{4}-\d{4}$/);
  expect(dialogs).toEqual([]);

  // 4. The tester reads each sample's species in its information, and each sample gets its own limit.
  const tester = await newBrowser(browser, lab);
  const testerUser = await signInAs(tester.page, lab, lab.demo.chemtester);
  const bench = tester.page;
  await bench.goto(`/for-testing-chem/${testerUser.userId}`);
  await bench.getByRole('searchbox', { name: 'Search by control number' }).fill(controlNumber);
  const row = forTestingRow(bench, controlNumber);
  await row.getByRole('button', { name: 'View Sample Information' }).click();
  const info = bench.locator(`#samples-${requestId}`);
  await expect(info.locator('.details-row').filter({ hasText: 'Species of Origin 1' })).toContainText('Swine');
  await expect(info.locator('.details-row').filter({ hasText: 'Species of Origin 2' })).toContainText('Cattle');
  await row.getByRole('button', { name: 'Show Chemistry Tests' }).click();
  await expect(bench.locator(`#tests-${requestId} legend`)).toHaveText(['Sample 1: Pork shoulder (Species of Origin: Swine)', 'Sample 2: Beef rump (Species of Origin: Cattle)']);
  const pork = bench.getByRole('group', { name: 'Corticosteroids, sample 1', exact: true });
  const beef = bench.getByRole('group', { name: 'Corticosteroids, sample 2', exact: true });
  await expect(pork).toContainText('Limit ≤ 0.5 µg/kg');
  await expect(beef).toContainText('Limit ≤ 0.75 µg/kg');
  // The same value: over the pig meat limit, within the general one.
  await pork.getByLabel('Value of Corticosteroids, sample 1', { exact: true }).fill('0.6');
  await beef.getByLabel('Value of Corticosteroids, sample 2', { exact: true }).fill('0.6');
  await expect(pork.locator('.finding-positive')).toHaveText('does not conform');
  await expect(beef.locator('.finding-negative')).toHaveText('conforms');
  await expectNoAxeViolations(bench, { atLeast: 'moderate' });
  await bench.screenshot({ path: testInfo.outputPath('species-bench.png'), fullPage: true });
  await tester.close();
});
