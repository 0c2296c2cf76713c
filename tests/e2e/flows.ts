/**
 * Steps several browser tests take the same way: reading the portal's messages, and entering
 * results on a For Testing screen.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { signInAs, type SignedIn } from './auth.js';
import { expect, type DemoRole, type Lab } from './fixtures.js';

/** A second browser (its own cookies, downloads accepted), not signed in. */
export async function newBrowser(browser: Browser, lab: Lab): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: lab.baseURL, acceptDownloads: true });
  return { page: await context.newPage(), close: () => context.close() };
}

/** A second browser (its own cookies) signed in as a demo account. */
export async function otherBrowser(browser: Browser, lab: Lab, role: DemoRole): Promise<{ page: Page; user: SignedIn; close: () => Promise<void> }> {
  const other = await newBrowser(browser, lab);
  const user = await signInAs(other.page, lab, lab.demo[role]);
  return { ...other, user };
}

/** In the open reject dialog (named `title`, e.g. 'Reject 2026-0012?'), types the reason and confirms. */
export async function rejectWithReason(page: Page, title: string, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByLabel('Reason for the rejection').fill(reason);
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
}

/**
 * Records the message of every alert, confirm or prompt the page raises (declining each): the portal
 * shows its messages in the page, so a test expects this list to stay empty. The browser's own
 * question before a reload with unsaved entries (beforeunload) is accepted and not recorded.
 */
export function recordDialogs(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') return void dialog.accept();
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  return messages;
}

/** The portal's outcome message at the top of the page: a success is a status, a failure an alert. */
export const pageNotice = (page: Page, role: 'status' | 'alert' = 'status'): Locator =>
  page.locator('.page-notices').getByRole(role).locator('.page-notice-text');

/** A request's row on a For Testing screen. */
export const forTestingRow = (page: Page, controlNumber: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: controlNumber, exact: true }) });

/** The '+' (positive) or '-' (negative) button of one analyte of one sample in an open result panel. */
export function remarkButton(page: Page, analyte: string, sample: number, remark: '+' | '-'): Locator {
  return page
    .getByRole('group', { name: `${analyte}, sample ${sample}`, exact: true })
    .getByRole('button', { name: remark === '+' ? '+ positive' : '- negative', exact: true });
}

/** Types a result, sets its remark with the '+' / '-' buttons and picks its analysis date. */
export async function enterResult(page: Page, analyte: string, sample: number, value: string, remark: '+' | '-', date?: string) {
  await page.getByLabel(`${analyte} result, sample ${sample}`, { exact: true }).fill(value);
  await remarkButton(page, analyte, sample, remark).click();
  if (date) await page.getByLabel(`${analyte} analysis date, sample ${sample}`, { exact: true }).fill(date);
}

/** The remark pressed for an analyte of a sample is `remark`, and only that one. */
export async function expectRemark(page: Page, analyte: string, sample: number, remark: '+' | '-') {
  const other = remark === '+' ? '-' : '+';
  await expect(remarkButton(page, analyte, sample, remark)).toHaveAttribute('aria-pressed', 'true');
  await expect(remarkButton(page, analyte, sample, other)).toHaveAttribute('aria-pressed', 'false');
}

/** Release is a signature: Release opens a dialog asking the staff member's password; signing releases. */
export async function signRelease(page: Page, item: Locator, password: string): Promise<void> {
  await item.getByRole('button', { name: 'Release', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Release the results of / });
  await expect(dialog).toContainText('Signing means: Results reviewed and approved for release');
  await dialog.getByLabel('Your password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign and release' }).click();
}
