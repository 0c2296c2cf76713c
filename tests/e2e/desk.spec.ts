/**
 * The receive-and-release desk (SPEC section 2 "Staff screens", DESIGN.md sections 5 and 10): staff
 * approve a pending request and read its control number, reject one, ask the client for more
 * information and read the reply, release a complete request, and read the monthly database.
 * Requests are submitted by the demo client through the API; results are entered by the demo tester
 * through the API; the report data are put straight into the server's database.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { ResultSeed } from '../../fixtures/requests.js';
import { buildSubmitPayload } from '../../server/domain/requestPayload.js';
import { signInAs, type SignedIn } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test, type Lab } from './fixtures.js';
import { otherBrowser, pageNotice, recordDialogs, rejectWithReason, signRelease } from './flows.js';
import { seedRequests, setAside } from './serverDb.js';

/** The demo client submits a request through the API; answers its id and sample ids. */
async function submitRequest(client: { page: Page; user: SignedIn }, lab: Lab, sample: string, tests: string[]) {
  const payload = buildSubmitPayload(
    {
      representativeName: 'democlient',
      contactNumber: '639171234567',
      emailAddress: lab.demo.client.email,
      companyName: 'Demo Meat Traders Inc.',
      clientClassification: 'Importer',
      ltoNumber: 'LTO-2026-001',
      testingPurpose: 'Local_Trade',
      otherTestingPurpose: '',
      sampleCategory: 'Walk-in',
      lotBatchNo: 'LOT-E2E',
      sampleSource: 'Cold storage',
      productionDate: '',
      expiryDate: '',
      samplingDate: '',
      samplerName: 'E2E Sampler',
      samples: [sample],
      tests,
      gramPositiveAst: '',
      gramNegativeAst: '',
    },
    new Date(),
  );
  const res = await client.page.request.post(`/requests/submitrequest/${client.user.userId}`, { data: payload });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { requestId: number; samples: { sampleId: number }[] };
  return { requestId: body.requestId, sampleIds: body.samples.map((s) => s.sampleId) };
}

/** Opens the pending list from the staff home and the request's details by its row. */
async function openPendingRequest(page: Page, staff: SignedIn, requestId: number) {
  await page.goto(`/home/staff/${staff.userId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Receive and Release Portal, Staff!' })).toBeVisible();
  await page.getByRole('link', { name: 'Pending Requests', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pending Requests' })).toBeVisible();
  for (const header of ['Client Classification', 'Tests Selected', 'Submission Date']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  const link = page.locator(`a[href="/request-details/${staff.userId}/${requestId}"]`);
  await expect(link.locator('xpath=ancestor::tr')).toContainText('Microbiological, Chemical, Molecular Biology');
  await link.click();
  await expect(page).toHaveURL(`/request-details/${staff.userId}/${requestId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Request Details' })).toBeVisible();
}

test.describe('receive-and-release desk', () => {
  test('staff approve a pending request and read its control number; the client is e-mailed', async ({ page, lab, browser }) => {
    const client = await otherBrowser(browser, lab, 'client');
    const { requestId } = await submitRequest(client, lab, 'Approve me: beef loin', ['eColi', 'betaLactams', 'dog']);
    const dialogs = recordDialogs(page);
    const staff = await signInAs(page, lab, lab.demo.staff);

    await openPendingRequest(page, staff, requestId);
    await expect(page.getByText('Press the back arrow to go the pending requests page!')).toBeVisible();
    await expect(page.getByText('Approve me: beef loin')).toBeVisible();
    await expect(page.getByText('E. Coli', { exact: true })).toBeVisible();
    await expect(page.getByText('Beta-lactams', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, { atLeast: 'serious' });

    const mark = lab.mailbox.mark();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(page).toHaveURL(`/request-control-number/${staff.userId}/${requestId}`);
    const value = page.locator('.control-number-value');
    await expect(page.getByText('Control Number:')).toBeVisible();
    await expect(value).toHaveText(/^\d{4}-\d{4}$/);
    const controlNumber = (await value.textContent())!;
    expect(dialogs).toEqual([]);

    const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.text.includes(`Control Number: ${controlNumber}`), { after: mark });
    expect(mail.subject).toContain('approved');

    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await expect(page).toHaveURL(`/home/staff/${staff.userId}`);
    // /approved shows the request this staff member approved last
    await page.goto(`/approved/${staff.userId}`);
    await expect(page.locator('.control-number-value')).toHaveText(controlNumber);

    // no longer in the pending list
    await page.goto(`/pending-requests/${staff.userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Pending Requests' })).toBeVisible();
    await expect(page.locator(`a[href="/request-details/${staff.userId}/${requestId}"]`)).toHaveCount(0);
    await client.close();
  });

  test('staff reject a pending request from its details', async ({ page, lab, browser }) => {
    const client = await otherBrowser(browser, lab, 'client');
    const { requestId } = await submitRequest(client, lab, 'Reject me: pork', ['standardPlateCount', 'chloramphenicol', 'cat']);
    const dialogs = recordDialogs(page);
    const staff = await signInAs(page, lab, lab.demo.staff);
    await openPendingRequest(page, staff, requestId);

    const mark = lab.mailbox.mark();
    const reject = page.getByRole('button', { name: 'Reject', exact: true });
    // Escape cancels, and the keyboard is back where it was.
    await reject.click();
    // A pending request has no control number yet: the dialog names it by company and submission day, not its database id.
    const dialog = page.getByRole('dialog', { name: /^Reject the request of Demo Meat Traders Inc\., submitted \w+ \d+, \d{4}\?$/ });
    await expect(dialog.getByLabel('Reason for the rejection')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(reject).toBeFocused();
    // No reason, no rejection: the dialog says why and nothing is sent.
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please give the reason for the rejection.');
    await expectNoAxeViolations(page, { atLeast: 'serious' });
    await dialog.getByLabel('Reason for the rejection').fill('The samples arrived thawed (24 °C).');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(page).toHaveURL(`/home/staff/${staff.userId}`);
    // SPEC's message, in the page it leads to; moving on ends it.
    await expect(pageNotice(page)).toHaveText('Request rejected successfully!');
    expect(dialogs).toEqual([]);
    const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes('rejected'), { after: mark });
    expect(mail.text).toContain('Reason: The samples arrived thawed (24 °C).');

    // the client reads the reason on its request, which no longer promises a completion date
    await client.page.goto(`/request-review/${client.user.userId}/${requestId}`);
    await expect(client.page.getByText('Rejected: The samples arrived thawed (24 °C).')).toBeVisible();
    await expect(client.page.getByText('REJECTED', { exact: true })).toBeVisible();
    await expect(client.page.getByText('Expected Completion Date')).toHaveCount(0);
    await client.close();

    // a rejected request has no control number: the screen says so in its place
    await page.goto(`/request-control-number/${staff.userId}/${requestId}`);
    await expect(page.locator('.control-number')).toHaveText(`Control Number: Request ${requestId} has no control number yet: it has not been approved.`);
  });

  test('staff ask for more information; the client reads it on its review page and replies; staff read the reply', async ({ page, lab, browser }) => {
    const client = await otherBrowser(browser, lab, 'client');
    const { requestId } = await submitRequest(client, lab, 'Which sample is this?', ['salmonellaSp', 'tetracyclines', 'goat']);
    const staff = await signInAs(page, lab, lab.demo.staff);
    await openPendingRequest(page, staff, requestId);

    await page.getByRole('link', { name: 'Request Additional Information' }).click();
    await expect(page).toHaveURL(`/request-additional-info/${staff.userId}/${requestId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Request Additional Information' })).toBeVisible();
    await expect(page.getByText('Type your comments down below')).toBeVisible();
    const question = 'Was the sample <kept> frozen during transport?';
    const mark = lab.mailbox.mark();
    await page.getByPlaceholder('Enter additional information').fill(question);
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await expect(page).toHaveURL(`/home/staff/${staff.userId}`);
    const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes('additional information'), { after: mark });
    expect(mail.text).toContain(question);

    // the client answers on its review page
    await client.page.goto(`/request-review/${client.user.userId}/${requestId}`);
    const exchange = client.page.getByRole('region', { name: 'Additional Information' });
    await expect(exchange.getByText(question, { exact: true })).toBeVisible();
    await exchange.getByLabel('Your reply').fill('It was kept at 2 °C, never frozen.');
    await exchange.getByRole('button', { name: 'Send Reply' }).click();
    await expect(exchange.getByRole('status')).toHaveText('Your reply has been sent.');
    await expect(exchange.getByText('It was kept at 2 °C, never frozen.', { exact: true })).toBeVisible();

    // staff read the reply on the request details, without a reply box of their own
    await openPendingRequest(page, staff, requestId);
    const details = page.getByRole('region', { name: 'Additional Information' });
    await expect(details.getByText(question, { exact: true })).toBeVisible();
    await expect(details.getByText('It was kept at 2 °C, never frozen.', { exact: true })).toBeVisible();
    await expect(details.getByRole('button', { name: 'Send Reply' })).toHaveCount(0);
    await client.close();
  });

  test('staff release a complete request and reject another from For Release', async ({ page, lab, browser }) => {
    const client = await otherBrowser(browser, lab, 'client');
    const { requestId, sampleIds } = await submitRequest(client, lab, 'Release me: chicken', ['eColi', 'salmonellaSp']);
    const dialogs = recordDialogs(page);
    const staff = await signInAs(page, lab, lab.demo.staff);
    const approved = await page.request.put(`/requests/approve/${requestId}`);
    expect(approved.status()).toBe(200);
    const { controlNumber } = (await approved.json()) as { controlNumber: string };

    // the microbiology tester enters both results: the request is complete and awaits release
    const tester = await otherBrowser(browser, lab, 'microbiotester');
    const saved = await tester.page.request.put(`/microbioTestResults/${sampleIds[0]}`, {
      data: {
        eColi: '12 cfu/g', eColiRemarks: 'positive', eColiAnalysisDate: '2026-03-10',
        salmonellaSp: 'Not detected', salmonellaSpRemarks: 'negative', salmonellaSpAnalysisDate: '2026-03-11',
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await tester.close();

    // and a second request awaiting release, to be rejected
    const [other] = await seedRequests(lab, [{ tests: ['dog'], status: 'FOR_RELEASE' }]);

    await page.goto(`/home/staff/${staff.userId}`);
    await page.getByRole('link', { name: 'For Release', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'For Release' })).toBeVisible();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Control Number ${controlNumber}` }) });
    await expect(item.getByText('Microbiological')).toBeVisible();
    await expect(item.getByText('Completed')).toBeVisible();

    const toggle = item.getByRole('button', { name: `Control Number ${controlNumber}` });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(item.getByRole('heading', { name: 'Sample 1: Release me: chicken' })).toBeVisible();
    const eColiRow = item.getByRole('row', { name: /E\.Coli/ });
    await expect(eColiRow).toContainText('12 cfu/g');
    // a positive finding reads as a warning (amber), not as the green of the '+' toggle
    await expect(eColiRow.getByText('Positive')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    // and a negative, the good outcome, is neutral, not the red of the '-' toggle
    await expect(item.getByRole('row', { name: /Salmonella/ }).getByText('Negative')).toHaveCSS('background-color', 'rgb(238, 242, 245)');
    await expectNoAxeViolations(page, { atLeast: 'serious' });

    const mark = lab.mailbox.mark();
    await signRelease(page, item, lab.demo.staff.password);
    await expect(pageNotice(page)).toHaveText('Request released successfully');
    await expect(page.getByRole('button', { name: `Control Number ${controlNumber}` })).toHaveCount(0);
    await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes(`results released for ${controlNumber}`), { after: mark });

    const otherItem = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Control Number ${other.controlNumber}` }) });
    await otherItem.getByRole('button', { name: 'Reject', exact: true }).click();
    await rejectWithReason(page, `Reject ${other.controlNumber}?`, 'The dog result was entered on the wrong request.');
    await expect(pageNotice(page)).toHaveText('Request has been rejected');
    expect(dialogs).toEqual([]);
    await expect(page.getByRole('button', { name: `Control Number ${other.controlNumber}` })).toHaveCount(0);
    await client.close();
  });

  test('the database shows the monthly counts of the chosen year and downloads a table as CSV', async ({ page, lab }) => {
    // 2021: a year no other test writes results in
    const result = (remark: 'positive' | 'negative', analysisDate: string): ResultSeed => ({ value: 'seen', remark, analysisDate });
    await seedRequests(lab, [
      {
        tests: ['eColi', 'dog'],
        samples: ['A', 'B', 'C'],
        status: 'RELEASED',
        submissionDate: '2021-02-01T08:00:00.000Z',
        result: (p, code) => (code === 'eColi' ? result(p === 3 ? 'negative' : 'positive', '2021-02-15') : result('negative', '2021-05-03')),
      },
    ]);
    const staff = await signInAs(page, lab, lab.demo.staff);
    // The statements of conformity (issue 26) load on their own: the first call fails.
    let failures = 1;
    await page.route('**/api/reports/nonconformities*', (route) => (failures-- > 0 ? route.fulfill({ status: 503, json: { message: 'The database is busy.' } }) : route.continue()));
    await page.goto(`/home/staff/${staff.userId}`);
    await page.getByRole('link', { name: 'Database', exact: true }).click();
    await expect(page).toHaveURL(`/receive-release-database/${staff.userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Database' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Microbiology', 'Chemical Microbial Inhibition', 'Chemical ELISA', 'Molecular Biology', 'Statements of conformity']);
    // Its failure is said in the section, with Retry (the monthly tables above it are shown).
    const conformity = page.getByRole('region', { name: 'Statements of conformity', exact: true });
    await expect(conformity.getByRole('alert')).toContainText('The database is busy.');
    await conformity.getByRole('button', { name: 'Retry' }).click();
    await expect(conformity.getByRole('alert')).toHaveCount(0);
    await expect(conformity.getByText(/^Loading/)).toHaveCount(0);

    await page.getByLabel('Year').selectOption('2021');
    // Results seeded without a specification's judgment: nothing to count that year.
    await expect(conformity).toContainText('No results were judged against a specification in 2021.');
    const microbio = page.getByRole('region', { name: 'Microbiology, 2021' });
    await expect(microbio.getByRole('columnheader', { name: 'Month' })).toBeVisible();
    await expect(microbio.getByRole('columnheader', { name: 'E.Coli', exact: true })).toBeVisible();
    await expect(microbio.getByRole('row')).toHaveCount(2 + 12);
    const february = microbio.getByRole('row', { name: /^2021-02/ });
    // E.Coli is the fifth test: its Positive and Negative cells are the 9th and 10th
    await expect(february.getByRole('cell').nth(8)).toHaveText('2');
    await expect(february.getByRole('cell').nth(9)).toHaveText('1');
    await expect(february.getByRole('cell').last()).toHaveText('2 / 1');
    await expect(microbio.getByRole('row', { name: /^2021-01/ }).getByRole('cell').last()).toHaveText('0 / 0');
    const molbio = page.getByRole('region', { name: 'Molecular Biology, 2021' });
    await expect(molbio.getByRole('row', { name: /^2021-05/ }).getByRole('cell').last()).toHaveText('0 / 3');
    await expect(page.getByRole('img', { name: 'Microbiology: positive and negative results per month, 2021' })).toBeVisible();
    await expectNoAxeViolations(page, { atLeast: 'serious' });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Molecular Biology CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('molbioreport-2021.csv');
    const csv = (await readFile(await file.path())).toString('utf8').split('\r\n');
    expect(csv[0]).toBe('Month,Dog Positive,Dog Negative,Cat Positive,Cat Negative,Chicken Positive,Chicken Negative,Buffalo Positive,Buffalo Negative,Cattle Positive,Cattle Negative,Horse Positive,Horse Negative,Goat Positive,Goat Negative,Sheep Positive,Sheep Negative,Swine Positive,Swine Negative,Total Positive,Total Negative');
    expect(csv[5]).toBe(`2021-05,0,3,${Array(16).fill(0).join(',')},0,3`);

    // positives stand out as warnings, zeros recede
    await expect(february.getByRole('cell').nth(8).getByText('2')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    await expect(february.getByRole('cell').nth(9).getByText('1')).not.toHaveCSS('color', 'rgb(85, 99, 111)');
    await expect(february.getByRole('cell').first().getByText('0')).toHaveCSS('color', 'rgb(85, 99, 111)');

    // only years with data are offered: 2021, not 2020 (no results that year)
    const offered = await page.getByLabel('Year').locator('option').allTextContents();
    expect(offered).toContain('2021');
    expect(offered).not.toContain('2020');
    expect(offered).toEqual([...offered].sort().reverse());

    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoHorizontalScroll(page);
  });

  test('phone width: the pending list and a request fit the screen', async ({ page, lab, browser }) => {
    const client = await otherBrowser(browser, lab, 'client');
    const { requestId } = await submitRequest(client, lab, 'Narrow screen sample with a rather long description', ['eColi', 'betaLactams', 'dog']);
    await client.close();
    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.setViewportSize({ width: 360, height: 740 });
    await openPendingRequest(page, staff, requestId);
    await expectNoHorizontalScroll(page);
    await page.goto(`/pending-requests/${staff.userId}`);
    await expect(page.getByRole('columnheader', { name: 'Tests Selected' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    // keyboard: the row's link opens the request
    await page.locator(`a[href="/request-details/${staff.userId}/${requestId}"]`).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/request-details/${staff.userId}/${requestId}`);
  });

  test('empty lists say so', async ({ page, lab }) => {
    const staff = await signInAs(page, lab, lab.demo.staff);
    await setAside(lab, ['PENDING_REVIEW', 'FOR_RELEASE'], async () => {
      await page.goto(`/pending-requests/${staff.userId}`);
      await expect(page.getByText('There are no pending requests as of the moment.')).toBeVisible();
      await page.goto(`/for-release/${staff.userId}`);
      await expect(page.getByText('There are no requests for release at the moment.')).toBeVisible();
    });
  });
});
