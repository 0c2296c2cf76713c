/**
 * The certificate of analysis (ISO/IEC 17025 7.8, DESIGN.md section 10): staff release a request by
 * signing with their password; the client downloads the certificate from the Results screen and its
 * text carries the 7.8.2.1 items; anyone opens its QR code's address without logging in; staff amend
 * the results; both reports are listed and the first one's verification says it was replaced; staff
 * withdraw the amended one and its verification says withdrawn. The client's company address, set on
 * the submission page, is printed; no sample receipt was recorded, and the certificate says so.
 */
import { pdfText } from '../helpers/pdfText.js';
import { signInAs } from './auth.js';
import { expectNoAxeViolations } from './checks.js';
import { expect, test } from './fixtures.js';
import { newBrowser, pageNotice, recordDialogs } from './flows.js';
import { seedRequests } from './serverDb.js';

test('a signed release gives the client a verifiable certificate, and an amendment replaces it', async ({ page, lab, browser }) => {
  // A whole journey through three browsers, like journey.spec.ts.
  test.setTimeout(300_000);
  const [request] = await seedRequests(lab, [
    {
      tests: ['eColi', 'betaLactams'],
      samples: ['Certificate beef loin'],
      status: 'FOR_RELEASE',
      result: (_position, code) =>
        code === 'eColi'
          ? { value: '4.0 x 10^2', remark: 'positive', analysisDate: '2026-03-10' }
          : { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-11' },
    },
  ]);
  const controlNumber = request.controlNumber!;
  const dialogs = recordDialogs(page);

  // 0. The client adds its company address (optional at registration) on the submission page.
  const client = await newBrowser(browser, lab);
  const clientUser = await signInAs(client.page, lab, lab.demo.client);
  await client.page.goto(`/submit-a-request/${clientUser.userId}`);
  const clientPanel = client.page.getByRole('region', { name: 'Client Information' });
  await expect(clientPanel).toContainText('Company AddressNot on file');
  await clientPanel.getByRole('button', { name: 'Add address' }).click();
  await clientPanel.getByLabel('Address').fill('88 Quirino Highway, Novaliches, Quezon City');
  await clientPanel.getByRole('button', { name: 'Save address' }).click();
  await expect(clientPanel.getByRole('status')).toHaveText('Address saved.');
  await expect(clientPanel).toContainText('Company Address88 Quirino Highway, Novaliches, Quezon City');

  // 1. Staff release it from For Release, signing with their password (a wrong one is refused).
  const staff = await signInAs(page, lab, lab.demo.staff);
  await page.goto(`/home/staff/${staff.userId}`);
  await page.getByRole('link', { name: 'For Release', exact: true }).click();
  const item = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Control Number ${controlNumber}` }) });
  await item.getByRole('button', { name: 'Release', exact: true }).click();
  const sign = page.getByRole('dialog', { name: `Release the results of ${controlNumber}` });
  await expect(sign).toContainText('Signing means: Results reviewed and approved for release');
  await expect(sign.getByLabel('Your password', { exact: true })).toBeFocused();
  await expectNoAxeViolations(page, { atLeast: 'serious' });
  await sign.getByLabel('Your password', { exact: true }).fill('not my password');
  await sign.getByRole('button', { name: 'Sign and release' }).click();
  await expect(sign.getByRole('alert')).toHaveText('Your password is incorrect: nothing was released.');
  await sign.getByLabel('Your password', { exact: true }).fill(lab.demo.staff.password);
  await sign.getByRole('button', { name: 'Sign and release' }).click();
  await expect(pageNotice(page)).toHaveText('Request released successfully');
  await expect(page.getByRole('button', { name: `Control Number ${controlNumber}` })).toHaveCount(0);

  // 2. The client downloads the certificate from the Results screen.
  await client.page.goto(`/track-my-request/${clientUser.userId}`);
  await client.page.getByRole('row').filter({ hasText: controlNumber }).getByRole('link').click();
  await expect(client.page).toHaveURL(`/request-results/${clientUser.userId}/${request.requestId}`);
  const certificates = client.page.getByRole('region', { name: 'Certificates of analysis' });
  const [download] = await Promise.all([
    client.page.waitForEvent('download'),
    certificates.getByRole('link', { name: `Download certificate ${controlNumber}-R1` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`certificate-${controlNumber}-R1.pdf`);
  const text = await pdfText(await download.path());
  for (const item of [
    'Certificate of Analysis',
    'National Meat Inspection Service',
    '4 Visayas Avenue, Vasra, Quezon City 1128, Philippines',
    `Report No.: ${controlNumber}-R1`,
    'Name: Demo Meat Traders Inc.',
    'Address: 88 Quirino Highway, Novaliches, Quezon City',
    'Certificate beef loin',
    'Date of receipt: Not recorded (no sample receipt was entered)',
    'E.Coli: ISO 16649-2:2001',
    '4.0 x 10^2',
    'cfu/g',
    'WARNING: Positive (+)',
    'Date of sampling:',
    'Date(s) of analysis: 2026-03-10 to 2026-03-11',
    'Date of issue:',
    'Authorized by: Rosa Reyes',
    'Signature meaning: Results reviewed and approved for release',
    'Results relate only to the items tested.',
  ]) {
    expect(text).toContain(item);
  }
  expect(text).toMatch(new RegExp(`Report ${controlNumber}-R1\\s+Page 1 of 1`));
  const verifyUrl = text.match(/http:\/\/\S+\/verify\/[A-Za-z0-9_-]+/)?.[0];
  expect(verifyUrl).toBeDefined();

  // 3. Anyone opens the QR code's address without logging in.
  const anonymous = await newBrowser(browser, lab);
  await anonymous.page.goto(verifyUrl!);
  await expect(anonymous.page.getByRole('heading', { level: 1, name: 'Certificate Verification' })).toBeVisible();
  await expect(anonymous.page.getByRole('status')).toHaveText('Valid: this is the current certificate of the request.');
  await expect(anonymous.page.locator('dl.verification')).toContainText(`Report${controlNumber}-R1`);
  await expectNoAxeViolations(anonymous.page, { atLeast: 'serious' });

  // 4. Staff amend the result with a reason, signing again.
  await page.goto(`/home/staff/${staff.userId}`);
  await page.getByRole('link', { name: 'Released', exact: true }).click();
  await page.getByRole('button', { name: `Control Number ${controlNumber}` }).click();
  await expect(page.getByText(`Report ${controlNumber}-R1`)).toBeVisible();
  await page.getByRole('button', { name: 'Amend results' }).click();
  const amend = page.getByRole('dialog', { name: `Amend the results of ${controlNumber}` });
  await amend.getByLabel('Result of sample 1 E.Coli').fill('Not detected');
  await amend.getByLabel('Remark of sample 1 E.Coli').selectOption('negative');
  await amend.getByLabel('Reason for the amendment').fill('Plate count transcribed from the wrong sample');
  await amend.getByLabel('Your password', { exact: true }).fill(lab.demo.staff.password);
  const mark = lab.mailbox.mark();
  await amend.getByRole('button', { name: 'Sign and issue amendment' }).click();
  await expect(pageNotice(page)).toHaveText(`Certificate ${controlNumber}-R2 issued; it replaces ${controlNumber}-R1.`);
  const mail = await lab.mailbox.waitFor(lab.demo.client.email, (m) => m.subject.includes(`amended certificate ${controlNumber}-R2`), { after: mark });
  expect(mail.text).toContain('Reason: Plate count transcribed from the wrong sample');

  // 5. Both reports are listed for the client; the amended one names the one it replaces.
  await client.page.reload();
  await expect(certificates.getByRole('link', { name: `Download certificate ${controlNumber}-R2` })).toBeVisible();
  await expect(certificates.getByRole('link', { name: `Download certificate ${controlNumber}-R1` })).toBeVisible();
  await expect(certificates).toContainText(`(Amendment 1 to ${controlNumber}-R1)`);
  await expect(certificates).toContainText('replaced by a later amendment');
  // Where the results are read, the amended value is marked: old and new reading, who, when and why.
  const amendedRow = client.page.getByRole('region', { name: 'Microbiology Tests' }).getByRole('row', { name: /E\.Coli/ }).first();
  await expect(amendedRow).toContainText('Not detected');
  await expect(amendedRow.locator('.amended-note')).toHaveText(
    new RegExp(`^✎ Amended in ${controlNumber}-R2 on \\w+ \\d+, \\d{4} by .+: was 4\\.0 x 10\\^2, positive, now Not detected, negative\\. Reason: Plate count transcribed from the wrong sample$`),
  );
  await expectNoAxeViolations(client.page, { atLeast: 'moderate' });
  const [amended] = await Promise.all([
    client.page.waitForEvent('download'),
    certificates.getByRole('link', { name: `Download certificate ${controlNumber}-R2` }).click(),
  ]);
  const amendedText = await pdfText(await amended.path());
  expect(amendedText).toContain(`Amendment 1 to ${controlNumber}-R1`);
  expect(amendedText).toContain('Reason for amendment: Plate count transcribed from the wrong sample');
  // The old value is printed once: as reported before, in the table of what the amendment changed.
  expect(amendedText.split('4.0 x 10^2')).toHaveLength(2);
  expect(amendedText.replace(/\s+/g, ' ')).toContain(`Changes from report ${controlNumber}-R1 Sample Test As reported before As amended`);

  // 6. The first certificate's verification now says it was replaced.
  await anonymous.page.reload();
  await expect(anonymous.page.getByRole('status')).toHaveText('Replaced: this certificate was replaced by an amended certificate and is no longer valid.');

  // 7. Staff withdraw the amended certificate, signing with a reason; its verification says withdrawn.
  const released = page.getByRole('region', { name: 'Certificates of analysis' });
  await released.getByRole('button', { name: `Withdraw ${controlNumber}-R2` }).click();
  const withdraw = page.getByRole('dialog', { name: `Withdraw certificate ${controlNumber}-R2` });
  await expect(withdraw).toContainText('Signing means: Report withdrawn');
  await withdraw.getByLabel('Reason for the withdrawal').fill('Sample identity could not be confirmed');
  await withdraw.getByLabel('Your password', { exact: true }).fill(lab.demo.staff.password);
  await withdraw.getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect(pageNotice(page)).toHaveText(`Certificate ${controlNumber}-R2 withdrawn.`);
  await expect(released).toContainText('Reason for withdrawal: Sample identity could not be confirmed');
  await expect(released.getByRole('button', { name: `Withdraw ${controlNumber}-R2` })).toHaveCount(0);
  const amendedUrl = amendedText.match(/http:\/\/\S+\/verify\/[A-Za-z0-9_-]+/)![0];
  await anonymous.page.goto(amendedUrl);
  await expect(anonymous.page.getByRole('status')).toHaveText('Withdrawn: the laboratory has withdrawn this certificate and it is no longer valid.');
  await expect(anonymous.page.locator('body')).not.toContainText('Sample identity');
  expect(dialogs).toEqual([]);
  await client.close();
  await anonymous.close();
});
