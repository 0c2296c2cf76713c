/**
 * Re-evaluating a released request against the specifications in force (issue 26): changing a
 * specification never changes a released decision by itself; staff re-evaluate on the Released
 * screen, where a dialog says beforehand which decisions would change, asks a reason and their
 * signature, and the amended certificate is named in the page with the changed decision marked. When
 * nothing would change, the dialog says so and the server's refusal is shown in the page.
 *
 * The specifications these tests add are narrowed to a scope (export, monitoring) that no other test's
 * request has, since the tests of a worker share its laboratory.
 */
import type { Browser, Page } from '@playwright/test';
import { signInAs } from './auth.js';
import { expectAccessibleAtBothWidths, expectNoAxeViolations } from './checks.js';
import { expect, test, type Lab } from './fixtures.js';
import { otherBrowser, pageNotice, recordDialogs } from './flows.js';
import { seedRequests } from './serverDb.js';

const EXPORT_MONITORING = { testingPurpose: 'Export', sampleCategory: 'Monitoring' };

/** An importing country's limit for Nitrofuran AMOZ in export monitoring samples. */
const amozForExport = (upperLimit: number) => ({
  analyte: 'nitrufuranAmoz', sampleCategory: 'Monitoring', species: null, purpose: 'Export', kind: 'quantitative', unit: 'µg/kg',
  lod: 0.05, loq: 0.1, lowerLimit: null, upperLimit, warningLevel: null, n: null, c: null, m: null, M: null,
  source: `Importing country requirement: AMOZ in pork at most ${upperLimit} µg/kg`, validFrom: '2026-01-01', validTo: null,
});

/**
 * A released request (report R1) with one Nitrofuran AMOZ result of `value` µg/kg that the chemistry
 * tester saved, judged when saved against the specification then in force.
 */
async function releasedWithAmoz(page: Page, browser: Browser, lab: Lab, value: number, seed: { testingPurpose: string; sampleCategory: string }) {
  const [request] = await seedRequests(lab, [{ tests: ['nitrufuranAmoz'], samples: ['Pork belly for export'], status: 'FOR_TESTING', ...seed }]);
  const tester = await otherBrowser(browser, lab, 'chemtester');
  const saved = await tester.page.request.put(`/chemTestElisaResults/${request.sampleIds[0]}`, {
    data: { nitrufuranAmozMeasurement: { value, unit: 'µg/kg' }, nitrufuranAmozAnalysisDate: '2026-03-10' },
  });
  expect(saved.status()).toBe(200);
  await tester.close();
  expect((await page.request.put(`/requests/approveRelease/${request.requestId}`, { data: { password: lab.demo.staff.password } })).status()).toBe(200);
  return { ...request, controlNumber: request.controlNumber! };
}

/** The Released screen, searched for `controlNumber`, its request opened. */
async function openReleased(page: Page, userId: string, controlNumber: string) {
  await page.goto(`/released/${userId}?q=${controlNumber}`);
  await page.getByRole('button', { name: `Control Number ${controlNumber}` }).click();
  return page.locator('.release-results').filter({ has: page.getByRole('region', { name: 'Certificates of analysis' }) });
}

test('staff re-evaluate a released request after a specification changed: the dialog names the decision that would change, the amended certificate is named and the decision marked', async ({ page, lab, browser }, testInfo) => {
  const dialogs = recordDialogs(page);
  const staff = await signInAs(page, lab, lab.demo.staff);
  // Set up through the API: the importing country's limit of 0.3 µg/kg; the tester measures 0.4.
  const v1 = await page.request.post('/api/specifications', { data: amozForExport(0.3) });
  expect(v1.status()).toBe(201);
  const request = await releasedWithAmoz(page, browser, lab, 0.4, EXPORT_MONITORING);
  const controlNumber = request.controlNumber;

  // The country corrects its limit to 0.5 µg/kg: a new version. The released decision stays as it was.
  const v2 = await page.request.post('/api/specifications', { data: { ...amozForExport(0.5), supersedes: (await v1.json()).id } });
  expect(v2.status()).toBe(201);
  const results = await openReleased(page, staff.userId, controlNumber);
  const row = results.getByRole('row', { name: /Nitrufuran AMOZ/ });
  await expect(row.locator('.conformity-cell')).toContainText('does not conform');
  await expect(row.locator('.conformity-cell')).toContainText('0.4 µg/kg is above the limit 0.3 µg/kg');

  // Re-evaluate, by keyboard: the dialog explains, and says beforehand what would change.
  const action = results.getByRole('button', { name: 'Re-evaluate against current specifications' });
  await action.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Re-evaluate ${controlNumber} against current specifications` });
  await expect(dialog).toContainText('When a decision changes, an amended certificate is issued');
  await expect(dialog).toContainText('Signing means: Amended results reviewed and approved for release');
  const change = dialog.getByRole('group', { name: 'Decisions that would change' }).getByRole('row', { name: /Nitrufuran AMOZ/ });
  await expect(change.getByRole('cell').nth(1)).toHaveText(/^does not conform\s*0\.4 µg\/kg is above the limit 0\.3 µg\/kg \(specification version 1\)$/);
  await expect(change.getByRole('cell').nth(2)).toHaveText(/^conforms\s*0\.4 µg\/kg is within the limit \(at most 0\.5 µg\/kg\) \(specification version 2\)$/);
  await expectNoAxeViolations(page, { atLeast: 'moderate' });
  await page.screenshot({ path: testInfo.outputPath('re-evaluate-dialog.png'), fullPage: true });
  // On a phone the dialog fits the screen (its table scrolls in its own box).
  await expectAccessibleAtBothWidths(page);
  // The focus is in the dialog, on its first field: the reason, then the password, then Enter signs.
  await expect(dialog.getByLabel('Reason for the re-evaluation')).toBeFocused();
  await page.keyboard.type('Importing country corrected its AMOZ limit to 0.5 µg/kg');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Your password', { exact: true })).toBeFocused();
  await page.keyboard.type(lab.demo.staff.password);
  const mark = lab.mailbox.mark();
  await page.keyboard.press('Enter');

  // The new report is named in the page; results and certificates are read again.
  await expect(pageNotice(page)).toHaveText(`Re-evaluated: certificate ${controlNumber}-R2 issued; it replaces ${controlNumber}-R1.`);
  await expect(dialog).toHaveCount(0);
  await expect(row.locator('.conformity-cell')).toHaveText(/^conforms\s*0\.4 µg\/kg is within the limit \(at most 0\.5 µg\/kg\)$/);
  await expect(row.locator('.amended-note')).toHaveText(
    new RegExp(
      `^✎ Amended in ${controlNumber}-R2 on \\w+ \\d+, \\d{4} by .+: was 0\\.4 µg/kg, positive, statement: does not conform, now 0\\.4 µg/kg, positive, statement: conforms\\. ` +
        'Reason: Importing country corrected its AMOZ limit to 0\\.5 µg/kg$',
    ),
  );
  const certificates = results.getByRole('region', { name: 'Certificates of analysis' });
  await expect(certificates).toContainText(`Report ${controlNumber}-R2 (Amendment 1 to ${controlNumber}-R1)`);
  await expect(certificates).toContainText('Reason for amendment: Importing country corrected its AMOZ limit to 0.5 µg/kg');
  const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes(`amended certificate ${controlNumber}-R2`), { after: mark });
  expect(mail.text).toContain('Reason: Importing country corrected its AMOZ limit to 0.5 µg/kg');
  await expectNoAxeViolations(page, { atLeast: 'moderate' });
  expect(dialogs).toEqual([]);
});

test('re-evaluating a released request whose decisions all stand: the dialog says so beforehand, and the server refuses in the page, keeping what was typed', async ({ page, lab, browser }) => {
  const dialogs = recordDialogs(page);
  const staff = await signInAs(page, lab, lab.demo.staff);
  // Judged against the shipped limit (0.5 µg/kg), which has not changed since.
  const request = await releasedWithAmoz(page, browser, lab, 0.4, { testingPurpose: 'Export', sampleCategory: 'Walk-in' });
  const controlNumber = request.controlNumber;
  const results = await openReleased(page, staff.userId, controlNumber);
  const action = results.getByRole('button', { name: 'Re-evaluate against current specifications' });
  await action.click();
  const dialog = page.getByRole('dialog', { name: `Re-evaluate ${controlNumber} against current specifications` });
  await expect(dialog).toContainText('No decision would change: every decision stands under the specifications and decision rule in force.');
  await expect(dialog.getByRole('group', { name: 'Decisions that would change' })).toHaveCount(0);

  // Signing anyway: a wrong password is refused first, then the server's 400, each in the dialog; the input stays.
  await dialog.getByLabel('Reason for the re-evaluation').fill('Annual review of export results');
  await dialog.getByLabel('Your password', { exact: true }).fill('not-my-password');
  await dialog.getByRole('button', { name: 'Sign and re-evaluate' }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toHaveText('Your password is incorrect: nothing was amended.');
  await expect(dialog.getByLabel('Reason for the re-evaluation')).toHaveValue('Annual review of export results');
  await dialog.getByLabel('Your password', { exact: true }).fill(lab.demo.staff.password);
  await dialog.getByRole('button', { name: 'Sign and re-evaluate' }).click();
  await expect(refusal).toHaveText('Every decision stands under the specifications and decision rule in force: nothing to re-evaluate.');
  await expect(dialog.getByLabel('Reason for the re-evaluation')).toHaveValue('Annual review of export results');
  await expect(dialog.getByLabel('Your password', { exact: true })).toHaveValue(lab.demo.staff.password);
  await expectNoAxeViolations(page, { atLeast: 'moderate' });

  // Nothing was issued; Escape closes the dialog and the focus goes back to the action.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(action).toBeFocused();
  const certificates = results.getByRole('region', { name: 'Certificates of analysis' });
  await expect(certificates.getByRole('listitem')).toHaveCount(1);
  await expect(certificates).toContainText(`Report ${controlNumber}-R1`);
  await expect(results.getByRole('row', { name: /Nitrufuran AMOZ/ }).locator('.amended-note')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
