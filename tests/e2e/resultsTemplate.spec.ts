/**
 * The For Testing page's results template: the discipline's analyses awaiting results downloaded as
 * the CSV layout `labctl results import` reads, following the page's Show filter.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { signInAs } from './auth.js';
import { expect, test } from './fixtures.js';
import { seedRequests } from './serverDb.js';

async function downloadTemplate(page: Page): Promise<{ name: string; lines: string[] }> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: /^Download results template/ }).click();
  const file = await download;
  return { name: file.suggestedFilename(), lines: (await readFile(await file.path())).toString('utf8').split('\r\n') };
}

test('a microbiology tester downloads the outstanding analyses as an import template', async ({ page, lab }) => {
  const [request] = await seedRequests(lab, [{ tests: ['eColi', 'salmonellaSp'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly'] }]);
  const controlNumber = request.controlNumber!;
  const { userId } = await signInAs(page, lab, lab.demo.microbiotester);
  await page.goto(`/for-testing-microbio/${userId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'For Testing' })).toBeVisible();

  const outstanding = await downloadTemplate(page);
  expect(outstanding.name).toBe('results-template-microbio.csv');
  expect(outstanding.lines[0]).toBe('control_number,sample_position,test_code,value,remark,analysis_date');
  expect(outstanding.lines.filter((l) => l.startsWith(`${controlNumber},`)).sort()).toEqual([
    `${controlNumber},1,eColi,,,`, `${controlNumber},1,salmonellaSp,,,`, `${controlNumber},2,eColi,,,`, `${controlNumber},2,salmonellaSp,,,`,
  ]);
  // No other discipline's analyses.
  expect(outstanding.lines.slice(1).filter((l) => l !== '').every((l) => /,(standardPlateCount|coliformCount|salmonellaSp|staphylococcusAureus|eColi|eColiAndeColi0O157|campylobacter|yeastAndMolds|cultureAndSensitivityTest),,,$/.test(l))).toBe(true);

  // Finished shows what has a result: the new request has none yet.
  await page.getByLabel('Show').selectOption('finished');
  const finished = await downloadTemplate(page);
  expect(finished.lines[0]).toBe('control_number,sample_position,test_code,value,remark,analysis_date');
  expect(finished.lines.some((l) => l.startsWith(`${controlNumber},`))).toBe(false);
});
