/**
 * The whole product, as its people use it, through the screens only: a client submits a request with
 * two samples and tests of all three families; staff approves it; each tester enters results for both
 * samples; the request awaits release with every family Completed; staff releases it; the client
 * reads every result; the testers' databases count the results in the month of their analysis.
 */
import type { Page } from '@playwright/test';
import { analytesOfGroup, type Group } from '../../server/domain/catalog.js';
import { REPORT_PATHS, reportKey, type GroupReport } from '../../server/domain/reportShape.js';
import { signInAs } from './auth.js';
import { expect, test } from './fixtures.js';
import { enterResult, forTestingRow, pageNotice, recordDialogs, signRelease } from './flows.js';

const today = new Date().toISOString().slice(0, 10);
const month = today.slice(0, 7);
const year = Number(today.slice(0, 4));

interface Entry {
  analyte: string;
  sample: 1 | 2;
  value: string;
  remark: '+' | '-';
}

/** What each tester enters, and the report cells it should add to. */
const DISCIPLINES: ReadonlyArray<{
  role: 'microbiotester' | 'chemtester' | 'molbiotester';
  path: 'microbio' | 'chem' | 'molbio';
  name: string;
  entries: Entry[];
  counts: Array<{ group: Group; code: string; positive: number; negative: number }>;
}> = [
  {
    role: 'microbiotester',
    path: 'microbio',
    name: 'Microbiology',
    entries: [
      { analyte: 'Standard/Aerobic Plate Count', sample: 1, value: '1.5 x 10^5 cfu/g', remark: '+' },
      { analyte: 'Standard/Aerobic Plate Count', sample: 2, value: '<10 cfu/g', remark: '-' },
    ],
    counts: [{ group: 'microbio', code: 'standardPlateCount', positive: 1, negative: 1 }],
  },
  {
    role: 'chemtester',
    path: 'chem',
    name: 'Chemistry',
    entries: [
      { analyte: 'Beta Lactams', sample: 1, value: 'Not detected', remark: '-' },
      { analyte: 'Beta Lactams', sample: 2, value: 'Not detected', remark: '-' },
      { analyte: 'Chloramphenicol', sample: 1, value: '<0.1 ppb', remark: '-' },
      { analyte: 'Chloramphenicol', sample: 2, value: '<0.1 ppb', remark: '-' },
    ],
    counts: [
      { group: 'chemMicrobial', code: 'betaLactams', positive: 0, negative: 2 },
      { group: 'chemElisa', code: 'chloramphenicol', positive: 0, negative: 2 },
    ],
  },
  {
    role: 'molbiotester',
    path: 'molbio',
    name: 'Molecular Biology',
    entries: [
      { analyte: 'Dog', sample: 1, value: 'Not detected', remark: '-' },
      { analyte: 'Dog', sample: 2, value: 'Detected', remark: '+' },
    ],
    counts: [{ group: 'molBio', code: 'dog', positive: 1, negative: 1 }],
  },
];

const TITLES: Record<Group, string> = {
  microbio: 'Microbiology',
  chemMicrobial: 'Chemical Microbial Inhibition',
  chemElisa: 'Chemical ELISA',
  molBio: 'Molecular Biology',
};

/** This month's counts of one test, as the signed-in user's report call answers them. */
async function reportCounts(page: Page, group: Group, code: string) {
  const response = await page.request.get(`/api/reports/${REPORT_PATHS[group]}?year=${year}`);
  expect(response.ok()).toBe(true);
  const report = (await response.json()) as GroupReport;
  const analyte = analytesOfGroup(group).find((a) => a.code === code)!;
  return report[reportKey(analyte)][month];
}

test('a request travels from submission to released results and monthly counts', async ({ page, lab }) => {
  test.setTimeout(180_000);
  const dialogs = recordDialogs(page);

  // 1. The client submits a request with two samples and tests of all three families.
  const { userId: clientId } = await signInAs(page, lab, lab.demo.client);
  await page.goto(`/home/client/${clientId}`);
  await page.getByRole('link', { name: 'Submit a Request' }).click();
  await expect(page.getByRole('region', { name: 'Client Information' })).toContainText('Demo Meat Traders Inc.');
  await page.getByRole('radio', { name: 'For Local Trade' }).check();
  await page.getByRole('radio', { name: 'Walk-in' }).check();
  await page.getByLabel('Lot/Batch No.').fill('LOT-JOURNEY');
  await page.getByLabel('Sample Source').fill('Cold storage 2');
  await page.getByLabel('Sampling Date').fill(today);
  await page.getByLabel('Sampler Name').fill('A. Reyes');
  await page.getByLabel('Sample Type Description 1').fill('Beef loin');
  await page.getByRole('button', { name: '+ Add Sample' }).click();
  await page.getByLabel('Sample Type Description 2').fill('Pork belly');
  for (const name of ['Standard Plate Count', 'Beta-lactams', 'Chloramphenicol', 'Dog']) {
    await page.getByRole('checkbox', { name, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Are you sure you want to submit this request?' }).getByRole('button', { name: 'Yes, submit' }).click();
  await expect(page).toHaveURL(`/request-submitted/${clientId}`);

  await page.goto(`/track-my-request/${clientId}`);
  const newest = page.getByRole('row').nth(1);
  await expect(newest).toContainText('PENDING REVIEW');
  const requestId = /\/(\d+)$/.exec((await newest.getByRole('link').getAttribute('href')) ?? '')?.[1];
  expect(requestId).toBeDefined();

  // 2. Staff approves it from the pending list and reads its control number.
  const { userId: staffId } = await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/home/staff/${staffId}`);
  await page.getByRole('link', { name: 'Pending Requests' }).click();
  await page.locator(`a[href="/request-details/${staffId}/${requestId}"]`).click();
  await expect(page.getByRole('main')).toContainText('LOT-JOURNEY');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const number = page.locator('.control-number-value');
  await expect(number).toHaveText(/^\d{4}-\d{4}$/);
  const controlNumber = (await number.textContent())!;

  // Baseline of this month's counts, to see the new results counted.
  const before = new Map<string, { positive: number; negative: number }>();
  for (const d of DISCIPLINES) for (const c of d.counts) before.set(c.code, await reportCounts(page, c.group, c.code));

  // 3. Each tester enters results for both samples and saves.
  for (const d of DISCIPLINES) {
    const { userId: testerId } = await signInAs(page, lab, lab.demo[d.role]);
    await page.goto(`/home/${d.role}/${testerId}`);
    await page.getByRole('link', { name: 'For Testing' }).click();
    const row = forTestingRow(page, controlNumber);
    await row.getByRole('button', { name: `Show ${d.name} Tests` }).click();
    for (const e of d.entries) await enterResult(page, e.analyte, e.sample, e.value, e.remark, today);
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByRole('status')).toHaveText('Changes saved successfully!');
  }

  // 4. The request awaits release with every family Completed; staff releases it.
  await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/home/staff/${staffId}`);
  await page.getByRole('link', { name: 'For Release' }).click();
  const item = page.locator('li.release-item').filter({ has: page.getByRole('button', { name: controlNumber }) });
  for (const family of ['Microbiological', 'Chemical', 'Molecular Biology']) {
    await expect(item.locator('.release-family').filter({ hasText: family }).locator('dd')).toHaveText('Completed');
  }
  await signRelease(page, item, lab.demo.staff.password);
  await expect(pageNotice(page)).toHaveText('Request released successfully');
  expect(dialogs).toEqual([]);
  await expect(page.getByRole('button', { name: controlNumber })).toHaveCount(0);

  // 5. The client reads every result.
  await signInAs(page, lab, lab.demo.client);
  await page.goto(`/track-my-request/${clientId}`);
  const releasedRow = page.getByRole('row').filter({ hasText: controlNumber });
  await expect(releasedRow).toContainText('RELEASED');
  await releasedRow.getByRole('link').click();
  await expect(page).toHaveURL(`/request-results/${clientId}/${requestId}`);
  const expected: Record<string, string[]> = {
    'Microbiology Tests': ['Standard/Aerobic Plate Count', '1.5 x 10^5 cfu/g', 'Positive', '<10 cfu/g', 'Negative'],
    'Chemical Microbial Tests': ['Beta Lactams', 'Not detected', 'Negative'],
    'Chemical ELISA Tests': ['Chloramphenicol', '<0.1 ppb', 'Negative'],
    'Molecular Biology Tests': ['Dog', 'Detected', 'Positive', 'Not detected'],
  };
  for (const [section, texts] of Object.entries(expected)) {
    const region = page.getByRole('region', { name: section });
    await expect(region.getByRole('heading', { name: /^Sample 2/ })).toBeVisible();
    for (const text of texts) await expect(region).toContainText(text);
  }

  // 6. Each discipline's database counts the results in this month.
  for (const d of DISCIPLINES) {
    const { userId: testerId } = await signInAs(page, lab, lab.demo[d.role]);
    await page.goto(`/home/${d.role}/${testerId}`);
    await page.getByRole('link', { name: 'Database' }).click();
    await expect(page).toHaveURL(`/testing-database-${d.path}/${testerId}`);
    for (const c of d.counts) {
      const table = page.getByRole('region', { name: `${TITLES[c.group]}, ${year}`, exact: true });
      const cells = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: month, exact: true }) }).getByRole('cell');
      const index = analytesOfGroup(c.group).findIndex((a) => a.code === c.code);
      const base = before.get(c.code)!;
      await expect(cells.nth(2 * index)).toHaveText(String(base.positive + c.positive));
      await expect(cells.nth(2 * index + 1)).toHaveText(String(base.negative + c.negative));
    }
  }
});
