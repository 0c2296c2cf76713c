/**
 * The client's side of the portal (SPEC section 2 "Client screens", section 5 "Submit request"):
 * submit a request with a live fee, find it in the track list, review it, read released results,
 * and the guide.
 */
import type { Page } from '@playwright/test';
import { systemClock } from '../../server/clock.js';
import { createClientAccount } from '../../server/services/clients.js';
import { signIn, signInAs } from './auth.js';
import { expectNoAxeViolations, expectNoHorizontalScroll } from './checks.js';
import { expect, test, type Lab } from './fixtures.js';
import { recordDialogs } from './flows.js';
import { seedRequests, withServerDb } from './serverDb.js';

async function openSubmitForm(page: Page, lab: Lab): Promise<string> {
  const { userId } = await signInAs(page, lab, lab.demo.client);
  await page.goto(`/submit-a-request/${userId}`);
  // The client panel is filled from the profile.
  await expect(page.getByRole('region', { name: 'Client Information' })).toContainText('Demo Meat Traders Inc.');
  return userId;
}

test.describe('client portal', () => {
  test('submits a request with two samples and tests of every family, then finds and reviews it', async ({ page, lab }) => {
    const dialogs = recordDialogs(page);
    const { userId } = await signInAs(page, lab, lab.demo.client);

    await page.goto(`/home/client/${userId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, democlient!' })).toBeVisible();
    await page.getByRole('link', { name: 'Submit a Request' }).click();
    await expect(page).toHaveURL(`/submit-a-request/${userId}`);

    const panel = page.getByRole('region', { name: 'Client Information' });
    for (const text of ['democlient', '(+63) 917 123 4567', 'client@demo.lab', 'Demo Meat Traders Inc.', 'Importer', 'LTO-2026-001']) {
      await expect(panel).toContainText(text);
    }

    await page.getByRole('radio', { name: 'NMIS Monitoring Program' }).check();
    await expect(page.getByLabel('Specify other purpose')).toHaveCount(0);
    await page.getByRole('radio', { name: 'Others' }).check();
    await page.getByLabel('Specify other purpose').fill('Supplier audit');
    await page.getByRole('radio', { name: 'Walk-in' }).check();

    await page.getByLabel('Lot/Batch No.').fill('LOT-77');
    await page.getByLabel('Sample Source').fill('Cold storage 4');
    await page.getByLabel('Production Date').fill('2026-03-01');
    await page.getByLabel('Expiry Date').fill('2026-06-30');
    await page.getByLabel('Sampling Date').fill('2026-03-10');
    await page.getByLabel('Sampler Name').fill('R. Cruz');

    const remove = page.getByRole('button', { name: '− Remove Sample' });
    await expect(remove).toBeDisabled();
    await page.getByLabel('Sample Type Description 1').fill('Beef loin');
    await page.getByRole('button', { name: '+ Add Sample' }).click();
    await page.getByLabel('Sample Type Description 2').fill('Pork belly');
    await expect(remove).toBeEnabled();

    // The estimate follows every tick: per sample x test.
    const fee = page.getByText(/^Estimated Fee:/);
    await expect(fee).toHaveText('Estimated Fee: PHP 0');
    await page.getByRole('checkbox', { name: 'Standard Plate Count' }).check();
    await expect(fee).toHaveText('Estimated Fee: PHP 300');
    await page.getByRole('checkbox', { name: 'Beta-lactams' }).check();
    await expect(fee).toHaveText('Estimated Fee: PHP 1,050');
    await page.getByRole('checkbox', { name: 'Dog' }).check();
    await expect(fee).toHaveText('Estimated Fee: PHP 4,050');
    await expect(page.getByText(/^Expected Completion Date:/)).toContainText('(7 working days)');

    // Culture and Sensitivity reveals its AST panels, charged per panel; unticking clears them.
    const culture = page.getByRole('checkbox', { name: 'Culture and Sensitivity' });
    await culture.check();
    await expect(fee).toHaveText('Estimated Fee: PHP 7,050');
    await page.getByLabel('Gram Positive AST').fill('Oxacillin');
    await page.getByLabel('Gram Negative AST').fill('Ampicillin');
    await expect(fee).toHaveText('Estimated Fee: PHP 10,050');
    await culture.uncheck();
    await expect(page.getByLabel('Gram Positive AST')).toHaveCount(0);
    await expect(fee).toHaveText('Estimated Fee: PHP 4,050');
    await culture.check();
    await expect(page.getByLabel('Gram Positive AST')).toHaveValue('');
    await culture.uncheck();

    // Removing a sample halves the fee, adding it back restores it.
    await remove.click();
    await expect(fee).toHaveText('Estimated Fee: PHP 2,025');
    await page.getByRole('button', { name: '+ Add Sample' }).click();
    await page.getByLabel('Sample Type Description 2').fill('Pork belly');
    await expect(fee).toHaveText('Estimated Fee: PHP 4,050');

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Are you sure you want to submit this request?' }).getByRole('button', { name: 'Yes, submit' }).click();
    await expect(page).toHaveURL(`/request-submitted/${userId}`);
    expect(dialogs).toEqual([]);
    await expect(page.getByRole('heading', { name: 'Request Submitted for Compliance Check' })).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(`/home/client/${userId}`);

    await page.getByRole('link', { name: 'Track My Request' }).click();
    await expect(page).toHaveURL(`/track-my-request/${userId}`);
    await expect(page.getByText('Drag the sides of the container to scroll!')).toBeVisible();
    const newest = page.getByRole('row').nth(1);
    await expect(newest).toContainText('Not yet assigned');
    await expect(newest).toContainText('PENDING REVIEW');
    await expect(newest).toHaveClass(/status-pending_review/);

    // Keyboard: the row's link opens the review.
    await newest.getByRole('link').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/request-review/${userId}/\\d+$`));
    const main = page.getByRole('main');
    for (const text of [
      'Others: Supplier audit',
      'Walk-in',
      'LOT-77',
      'Cold storage 4',
      'March 1, 2026',
      'June 30, 2026',
      'R. Cruz',
      'Beef loin',
      'Pork belly',
      'Standard Plate Count',
      'Beta-lactams',
      'Dog',
      'PHP 4,050',
      'PENDING REVIEW',
    ]) {
      await expect(main).toContainText(text);
    }
    await expect(main.getByRole('textbox')).toHaveCount(0);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(`/track-my-request/${userId}`);
    await page.getByRole('row').nth(1).getByRole('cell').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/request-review/${userId}/\\d+$`));
    await page.getByRole('link', { name: 'My requests' }).click();
    await expect(page).toHaveURL(`/track-my-request/${userId}`);
  });

  test('names every missing field at once beside it, and submits nothing when the confirmation is declined', async ({ page, lab }) => {
    const dialogs = recordDialogs(page);
    const userId = await openSubmitForm(page, lab);
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    const form = page.locator('form.request-form');
    const summary = form.getByRole('alert');

    // Everything missing is said in one go: SPEC's two messages, and each field's own beside it.
    await submit.click();
    await expect(summary.getByRole('paragraph')).toHaveText(['Please fill in all required fields.', 'Please select at least one test.']);
    await expect(page.getByRole('group', { name: '1 Purpose of Testing' })).toHaveAccessibleDescription('Choose the purpose of testing.');
    await expect(page.getByRole('group', { name: '2 Sample Category' })).toHaveAccessibleDescription('Choose the sample category.');
    await expect(page.getByRole('group', { name: '4 Test Selection' })).toHaveAccessibleDescription('Select at least one test.');
    await expectNoAxeViolations(page, { atLeast: 'moderate' });

    // Each message goes as its field is fixed.
    await page.getByRole('radio', { name: 'Export (OMIC Issuance)' }).check();
    await page.getByRole('radio', { name: 'Monitoring', exact: true }).check();
    await expect(summary).toHaveText('Please select at least one test.');
    await expect(page.getByText('Choose the purpose of testing.')).toHaveCount(0);

    await page.getByRole('checkbox', { name: 'Swine' }).check();
    await expect(summary).toHaveCount(0);
    await submit.click();
    // The confirmation is a dialog in the page: labelled by its question, Cancel focused, Escape declines.
    const confirm = page.getByRole('dialog', { name: 'Are you sure you want to submit this request?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(submit).toBeFocused();
    await submit.click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(`/submit-a-request/${userId}`);
    expect(dialogs).toEqual([]);
  });

  test('reads the released results of a request, grouped by test family, a positive as a warning', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.client);
    const [released, testing] = await seedRequests(lab, [
      {
        tests: ['eColi', 'chloramphenicol', 'betaLactams', 'dog'],
        status: 'RELEASED',
        samples: ['Chicken breast', 'Chicken liver'],
        submissionDate: '2025-05-05T08:00:00.000Z',
        result: (position, code) =>
          position === 1 && code === 'eColi'
            ? { value: 'Detected', remark: 'positive', analysisDate: '2025-05-08' }
            : { value: 'Not detected', remark: 'negative', analysisDate: '2025-05-09' },
      },
      { tests: ['eColi'], status: 'FOR_TESTING', submissionDate: '2025-05-01T08:00:00.000Z' },
    ]);

    await page.goto(`/track-my-request/${userId}`);
    const row = page.getByRole('row', { name: new RegExp(released.controlNumber!) });
    await expect(row).toContainText('RELEASED');
    await expect(row).toHaveClass(/status-released/);
    await row.getByRole('link').click();
    await expect(page).toHaveURL(`/request-results/${userId}/${released.requestId}`);
    await expect(page.getByText(`Control Number: ${released.controlNumber}`)).toBeVisible();

    const headings = page.getByRole('heading', { level: 2 });
    await expect(headings).toHaveText(['Summary', 'Microbiology Tests', 'Chemical ELISA Tests', 'Chemical Microbial Tests', 'Molecular Biology Tests', 'Certificate of Analysis']);

    const microbio = page.getByRole('region', { name: 'Microbiology Tests' });
    await expect(microbio.getByRole('heading', { level: 3 })).toHaveText(['Sample 1: Chicken breast', 'Sample 2: Chicken liver']);
    const positive = microbio.getByRole('row', { name: /E\.Coli/ }).first();
    await expect(positive).toContainText('Detected');
    await expect(positive).toContainText('May 8, 2025');
    // Read, a positive is a warning (amber), not the green of the tester's '+' toggle.
    // One colour language: a positive is a warning in amber with an icon and the word, never colour
    // alone; a negative (the good outcome) is neutral, not red.
    await expect(positive.getByText('Positive')).toHaveCSS('background-color', 'rgb(255, 241, 214)');
    expect(await positive.getByText('Positive').evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"⚠"');
    const negative = page.getByRole('region', { name: 'Molecular Biology Tests' }).getByRole('row', { name: /Dog/ }).first();
    await expect(negative).toContainText('Not detected');
    await expect(negative.getByText('Negative')).toHaveCSS('background-color', 'rgb(238, 242, 245)');
    await expect(negative.getByText('Negative')).toHaveCSS('color', 'rgb(28, 39, 51)');
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(`/track-my-request/${userId}`);

    // A request still in testing opens its review, and its results stay closed.
    await page.getByRole('row', { name: new RegExp(testing.controlNumber!) }).getByRole('link').click();
    await expect(page).toHaveURL(`/request-review/${userId}/${testing.requestId}`);
    await page.goto(`/request-results/${userId}/${testing.requestId}`);
    await expect(page.getByRole('alert')).toHaveText('The results of this request are not released yet.');
  });

  test('dragging the track list scrolls the page without opening the row under the pointer', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.client);
    await seedRequests(
      lab,
      Array.from({ length: 30 }, (_, i) => ({
        tests: ['eColi'],
        submissionDate: `2024-01-${String(i + 1).padStart(2, '0')}T08:00:00.000Z`,
      })),
    );
    await page.goto(`/track-my-request/${userId}`);
    await expect(page.getByRole('row').nth(30)).toBeAttached(); // the header and the 30 seeded requests
    const cell = page.getByRole('row').nth(3).getByRole('cell').nth(1);
    const box = (await cell.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y - 150, { steps: 5 });
    await page.mouse.up();
    // The list grows with the page (it never traps the wheel), so the drag moves the page.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(page).toHaveURL(`/track-my-request/${userId}`);
  });

  test('a client without requests sees the empty message', async ({ page, lab }) => {
    // A client of its own, so the demo client's requests do not show.
    const account = { email: 'newcomer@client.test', password: 'newcomer-password' };
    await withServerDb(lab, (db) =>
      createClientAccount(
        db,
        systemClock,
        { username: 'newcomer', firstName: 'Nina', lastName: 'Newcomer', contactNumber: '639171112222', verified: true, ...account },
        { companyName: 'Newcomer Meats', ltoNo: 'LTO-NEW', classification: 'Consumer' },
      ),
    );
    const { userId } = await signIn(page, lab, account.email, account.password);
    await page.goto(`/track-my-request/${userId}`);
    await expect(page.getByText('You have no ongoing requests and results.')).toBeVisible();
  });

  test('the submission form fits a phone and passes an accessibility check', async ({ page, lab }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openSubmitForm(page, lab);
    await page.getByRole('checkbox', { name: 'Culture and Sensitivity' }).check();
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  });

  test('the guide shows packing, sample requirements and the fee table', async ({ page, lab }) => {
    const { userId } = await signInAs(page, lab, lab.demo.client);
    await page.goto(`/home/client/${userId}`);
    await page.getByRole('link', { name: 'Guide' }).click();
    await expect(page).toHaveURL(`/guide/${userId}`);
    await expect(page.getByText('Transport samples in an ice box with coolant.')).toBeVisible();
    await expect(page.getByRole('row', { name: /Molecular Biology \(Species Identification\)/ })).toContainText('At least 5 g per sample.');
    const fees = page.getByRole('table', { name: /Fee \(PHP\)/ });
    await expect(fees.getByRole('row')).toHaveCount(15);
    await expect(fees.getByRole('row', { name: /Campylobacter/ })).toHaveText(/Microbiological\s*Campylobacter\s*1,500\s*10/);
    await expect(fees.getByRole('row', { name: /Beta-lactams/ })).toContainText('375 each');
    await expect(fees.getByRole('row', { name: /Organoleptic/ })).toContainText('50');
  });
});
