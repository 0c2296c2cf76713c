/**
 * Steps several browser tests take the same way: answering the portal's dialogs, and entering
 * results on a For Testing screen.
 */
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.js';

/** Records every dialog's message; confirmations are accepted unless `accept` says no (alerts just close). */
export function recordDialogs(page: Page, accept = (): boolean => true): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void (accept() ? dialog.accept() : dialog.dismiss());
  });
  return messages;
}

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
