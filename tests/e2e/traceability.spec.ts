/**
 * Traceability (issue 15): staff record a sample receipt and print labels, the tester and the client
 * see a flagged receipt, staff and the client read the timeline of a whole journey, staff filter the
 * audit trail and export it, and read the turnaround dashboard. The client's submission, the
 * question and answer and the tester's results go through the API; everything checked is clicked.
 */
import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { buildSubmitPayload } from '../../server/domain/requestPayload.js';
import { pdfText } from '../helpers/pdfText.js';
import { signInAs, type SignedIn } from './auth.js';
import { expectNoAxeViolations } from './checks.js';
import { expect, test, type DemoRole, type Lab } from './fixtures.js';
import { forTestingRow } from './flows.js';
import { refreshProgress } from '../../server/db/requestProgress.js';
import { seedRequests, withServerDb } from './serverDb.js';

async function otherBrowser(browser: Browser, lab: Lab, role: DemoRole): Promise<{ page: Page; user: SignedIn; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: lab.baseURL });
  const page = await context.newPage();
  const user = await signInAs(page, lab, lab.demo[role]);
  return { page, user, close: () => context.close() };
}

async function submit(client: { page: Page; user: SignedIn }, lab: Lab, sample: string) {
  const payload = buildSubmitPayload(
    {
      representativeName: 'democlient', contactNumber: '639171234567', emailAddress: lab.demo.client.email, companyName: 'Demo Meat Traders Inc.',
      clientClassification: 'Importer', ltoNumber: 'LTO-2026-001', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in',
      lotBatchNo: 'LOT-TRACE', sampleSource: 'Cold storage', productionDate: '', expiryDate: '', samplingDate: '', samplerName: 'E2E Sampler',
      samples: [sample], tests: ['standardPlateCount'], gramPositiveAst: '', gramNegativeAst: '',
    },
    new Date(),
  );
  const res = await client.page.request.post(`/requests/submitrequest/${client.user.userId}`, { data: payload });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { requestId: number; samples: { sampleId: number }[] };
  return { requestId: body.requestId, sampleId: body.samples[0].sampleId };
}

test.describe('traceability', () => {
  test('a whole journey: reception, labels, flags for the tester and the client, and the timeline in order with its actors', async ({ page, lab, browser }) => {
    // Three browsers and a dozen steps: more than a single-screen test's time on a busy machine.
    test.slow();
    const client = await otherBrowser(browser, lab, 'client');
    const tester = await otherBrowser(browser, lab, 'microbiotester');
    const { requestId, sampleId } = await submit(client, lab, 'Trace me: pork shoulder');
    const staff = await signInAs(page, lab, lab.demo.staff);
    // The outbox worker sends a call's mail right after its commit: each step waits until the server
    // recorded it sent, so the timeline's order below is the journey's.
    const mailsSent = async (count: number) => {
      const sent = async () => ((await (await page.request.get(`/requests/timeline/${requestId}`)).json()).events as Array<{ title: string }>).filter((e) => e.title === 'Mail sent').length;
      await expect.poll(sent, { timeout: 15_000 }).toBe(count);
    };
    expect((await page.request.post(`/requests/messages/${requestId}`, { data: { body: 'Was it chilled?' } })).status()).toBe(201);
    await mailsSent(1);
    expect((await client.page.request.post(`/requests/messages/${requestId}`, { data: { body: 'Yes, at 4 °C.' } })).status()).toBe(201);

    // Approve from the details, then come back to record the receipt.
    await page.goto(`/request-details/${staff.userId}/${requestId}`);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const value = page.locator('.control-number-value');
    await expect(value).toHaveText(/^\d{4}-\d{4}$/);
    const controlNumber = (await value.textContent())!;
    await mailsSent(2);
    await page.goto(`/request-details/${staff.userId}/${requestId}`);
    const reception = page.getByRole('region', { name: 'Sample Reception' });
    await reception.getByLabel('Received at').fill('2026-03-20T08:15');
    await reception.getByLabel('Number of containers').fill('2');
    await reception.getByLabel('Not acceptable').check();
    await reception.getByRole('button', { name: 'Record Receipt' }).click();
    await expect(reception.getByRole('alert')).toHaveText('reason: say why the samples are not acceptable');
    await reception.getByLabel('Reason').fill('Seal broken');
    await reception.getByLabel('Temperature on arrival (°C)').fill('12');
    await expect(reception.getByText('Above the 10 °C limit for microbiological samples.')).toBeVisible();
    await reception.getByRole('button', { name: 'Record Receipt' }).click();
    const receipt = reception.getByTestId('receipt');
    await expect(receipt).toContainText('Samples received');
    await expect(receipt).toContainText('by Rosa Reyes');
    await expect(receipt).toContainText('Condition on arrival: Not acceptable (Seal broken)');
    await expect(receipt).toContainText('Temperature on arrival: 12 °C (above the 10 °C microbiology limit)');
    await expectNoAxeViolations(page, { atLeast: 'serious' });

    // Labels: a PDF with the control number, the sample's position and description.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Print labels' }).click()]);
    expect(download.suggestedFilename()).toBe(`labels-${controlNumber}.pdf`);
    const text = await pdfText(await download.path());
    expect(text).toContain(controlNumber);
    expect(text).toContain('Sample 1 of 1');
    expect(text).toContain('Trace me: pork shoulder');

    // The tester sees the flag and the receipt on the For Testing screen.
    await tester.page.goto(`/for-testing-microbio/${tester.user.userId}`);
    const row = forTestingRow(tester.page, controlNumber);
    await expect(row.getByText('⚠ Sample reception flagged')).toBeVisible();
    await row.getByRole('button', { name: /View Sample Information/ }).click();
    await expect(tester.page.getByTestId('receipt')).toContainText('Not acceptable (Seal broken)');
    // Results: one entry, then a correction that completes the request.
    const put = (data: object) => tester.page.request.put(`/microbioTestResults/${sampleId}`, { data });
    expect((await put({ standardPlateCount: '1.0 x 10^3', standardPlateCountRemarks: '', standardPlateCountAnalysisDate: null })).status()).toBe(200);
    expect((await put({ standardPlateCount: '1.1 x 10^3', standardPlateCountRemarks: 'negative', standardPlateCountAnalysisDate: '2026-03-20' })).status()).toBe(200);

    // The client sees the flagged receipt on its review page.
    await client.page.goto(`/request-review/${client.user.userId}/${requestId}`);
    await expect(client.page.getByRole('alert').filter({ hasText: 'Seal broken' })).toBeVisible();
    // Release is signed with the staff member's password (issue 14).
    expect((await page.request.put(`/requests/approveRelease/${requestId}`, { data: { password: lab.demo.staff.password } })).status()).toBe(200);
    await mailsSent(3);

    // Staff: the timeline from the details, every event in order with its actor.
    await page.goto(`/request-details/${staff.userId}/${requestId}`);
    await page.getByRole('link', { name: 'Timeline' }).click();
    await expect(page).toHaveURL(`/request-timeline/${staff.userId}/${requestId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Timeline of ${controlNumber}` })).toBeVisible();
    // Grouped by day and phase, in order.
    const events = page.locator('.timeline-event');
    await expect(page.getByRole('region', { name: /^Testing, / }).getByRole('heading', { level: 3 })).toHaveText('Testing');
    const expected: Array<[string, string]> = [
      ['Submitted', 'Dana Delos Santos (client)'],
      ['Additional information asked', 'Rosa Reyes (staff)'],
      ['Mail sent', 'Rosa Reyes (staff)'],
      ['Client answered', 'Dana Delos Santos (client)'],
      ['Approved', 'Rosa Reyes (staff)'],
      ['Mail sent', 'Rosa Reyes (staff)'],
      ['Samples received', 'Rosa Reyes (staff)'],
      ['Result entered', 'Maya Santos (microbiotester)'],
      ['Result changed', 'Maya Santos (microbiotester)'],
      ['Testing completed', 'Maya Santos (microbiotester)'],
      ['Released', 'Rosa Reyes (staff)'],
      ['Mail sent', 'Rosa Reyes (staff)'],
    ];
    await expect(events).toHaveCount(expected.length);
    for (const [i, [title, actor]] of expected.entries()) {
      await expect(events.nth(i).locator('.timeline-title')).toHaveText(title);
      await expect(events.nth(i).locator('.timeline-meta')).toContainText(actor);
    }
    await expect(events.nth(8)).toContainText("Before: '1.0 x 10^3' → After: '1.1 x 10^3', negative, analysed 2026-03-20");
    await expect(events.nth(10)).toContainText('Signed by Rosa Reyes: Results reviewed and approved for release');

    // The client: its own timeline from the results page, without the laboratory's result entries.
    await client.page.goto(`/request-results/${client.user.userId}/${requestId}`);
    await client.page.getByRole('link', { name: 'Timeline' }).click();
    const clientEvents = client.page.locator('.timeline-event');
    await expect(clientEvents).toHaveCount(expected.length - 2);
    await expect(client.page.getByText('Result entered')).toHaveCount(0);
    await expect(clientEvents.nth(expected.length - 4)).toContainText('Signed by Rosa Reyes: Results reviewed and approved for release');
    await expect(clientEvents.last()).toContainText('Mail sent');
    await client.close();
    await tester.close();
  });

  test('the timeline folds a run of result entries behind one line, which opens', async ({ page, lab, browser }) => {
    const [request] = await seedRequests(lab, [{ tests: ['eColi', 'salmonellaSp', 'coliformCount', 'yeastAndMolds'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly'] }]);
    const tester = await browser.newContext({ baseURL: lab.baseURL });
    const testerPage = await tester.newPage();
    await signInAs(testerPage, lab, lab.demo.microbiotester);
    const sampleIds = await withServerDb(lab, (db) => db('samples').where('request_id', request.requestId).orderBy('position').pluck('id'));
    for (const sampleId of sampleIds) {
      const data = Object.fromEntries(['eColi', 'salmonellaSp', 'coliformCount', 'yeastAndMolds'].flatMap((code) => [[code, 'Not detected'], [`${code}Remarks`, 'negative'], [`${code}AnalysisDate`, '2026-03-20']]));
      expect((await testerPage.request.put(`/microbioTestResults/${sampleId}`, { data })).status()).toBe(200);
    }
    await tester.close();

    const staff = await signInAs(page, lab, lab.demo.staff);
    await page.goto(`/request-timeline/${staff.userId}/${request.requestId}`);
    const testing = page.getByRole('region', { name: /^Testing, / });
    const folded = testing.getByText('8 result entries', { exact: true });
    await expect(folded).toBeVisible();
    await expect(testing.locator('.timeline-event[data-kind="result"]').first()).toBeHidden();
    await expect(testing.locator('.timeline-event[data-kind="completed"]')).toBeVisible();
    await expectNoAxeViolations(page, { atLeast: 'moderate' });
    await folded.focus();
    await page.keyboard.press('Enter');
    await expect(testing.locator('.timeline-event[data-kind="result"]')).toHaveCount(8);
    await expect(testing.locator('.timeline-event[data-kind="result"]').first()).toBeVisible();
  });

  test('staff filter the audit trail and export it as CSV', async ({ page, lab }) => {
    const [seeded] = await seedRequests(lab, [{ tests: ['eColi'], status: 'FOR_TESTING' }]);
    const staff = await signInAs(page, lab, lab.demo.staff);
    expect((await page.request.post(`/requests/receive/${seeded.requestId}`, { data: { receivedAt: '2026-03-20T08:00:00Z', containers: 3, condition: 'acceptable', temperatureC: 5 } })).status()).toBe(201);

    await page.goto(`/home/staff/${staff.userId}`);
    await page.getByRole('link', { name: 'Audit Trail', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Trail' })).toBeVisible();
    await page.getByLabel('Request').fill(seeded.controlNumber!);
    await page.getByLabel('Action').fill('request.receive');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByRole('status')).toHaveText('Showing 1 of 1 entries');
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Rosa Reyes (staff)');
    await expect(rows.nth(1)).toContainText('request.receive');
    await expect(rows.nth(1)).toContainText('"containers":3');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('id,at,actor,role,action,request_id,control_number,details,ip');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`Rosa Reyes,staff,request.receive,${seeded.requestId},${seeded.controlNumber}`);

    await rows.nth(1).getByRole('link', { name: seeded.controlNumber! }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Timeline of ${seeded.controlNumber}` })).toBeVisible();
  });

  test('staff read the turnaround dashboard, late requests first, a page at a time', async ({ page, lab }) => {
    const [late] = await seedRequests(lab, [{ tests: ['dog'], status: 'FOR_TESTING', submissionDate: '2020-01-02T08:00:00.000Z' }]);
    await withServerDb(lab, async (db) => {
      await db('requests').where('id', late.requestId).update({ due_date: '2020-01-09' });
      await refreshProgress(db, [late.requestId]);
    });
    // More open requests than the first page shows (50); removed afterwards (in review, they counted nowhere else).
    const extra = (await seedRequests(lab, Array.from({ length: 50 }, () => ({ tests: ['standardPlateCount'] })))).map((r) => r.requestId);
    try {
      const staff = await signInAs(page, lab, lab.demo.staff);
      await page.goto(`/home/staff/${staff.userId}`);
      await page.getByRole('link', { name: 'Turnaround', exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Turnaround' })).toBeVisible();
      const perDiscipline = page.getByRole('table', { name: 'Per discipline' });
      for (const label of ['Microbiological', 'Chemical', 'Molecular Biology']) await expect(perDiscipline.getByRole('cell', { name: label, exact: true })).toBeVisible();
      const molBio = perDiscipline.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Molecular Biology', exact: true }) });
      await expect(molBio.getByRole('cell').nth(3)).toHaveText('2020-01-02');
      // First the late requests, most days late first; a chart per discipline and week, its figures as a table.
      const lateRows = page.getByRole('table', { name: 'Late requests' }).getByRole('row');
      await expect(lateRows.nth(1)).toContainText(late.controlNumber!);
      await expect(lateRows.nth(1)).toContainText('days late');
      await expect(page.getByRole('img', { name: /^Molecular Biology: requests per week of submission/ })).toBeVisible();
      // Then every open request, a page at a time (the choice is kept in the address).
      await page.getByRole('combobox', { name: 'List' }).selectOption('open');
      await expect(page).toHaveURL(/show=open/);
      const rows = page.getByRole('table', { name: 'Open requests' }).getByRole('row');
      await expect(rows.nth(1)).toContainText(late.controlNumber!);
      await expect(rows.nth(1)).toContainText('days late');

      await expect(page.getByRole('status')).toHaveText(/^Showing 50 of \d+ open requests$/);
      const total = Number(/of (\d+)/.exec((await page.getByRole('status').textContent())!)![1]);
      await page.getByRole('button', { name: 'Show more' }).press('Enter');
      const shown = Math.min(total, 100);
      await expect(page.getByRole('status')).toHaveText(`Showing ${shown} of ${total} open requests`);
      await expect(rows).toHaveCount(shown + 1);
      // The keyboard goes on from the first row the page added.
      await expect(rows.nth(51).getByRole('link')).toBeFocused();

      await rows.nth(1).getByRole('link', { name: late.controlNumber! }).click();
      await expect(page).toHaveURL(`/request-details/${staff.userId}/${late.requestId}`);
    } finally {
      await withServerDb(lab, (db) => db('requests').whereIn('id', extra).delete());
    }
  });
});
