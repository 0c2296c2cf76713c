// Sample reception (issue 15): what staff record when the samples of an approved request arrive,
// and the rules that flag a receipt. Pure, shared by the API, the CLI and the forms.
import { z } from 'zod';

/** SPEC section 9: microbiological samples must arrive at 10 °C or below. */
export const MICROBIOLOGY_MAX_TEMPERATURE_C = 10;

export const RECEIPT_CONDITIONS = ['acceptable', 'not-acceptable'] as const;
export type ReceiptCondition = (typeof RECEIPT_CONDITIONS)[number];

export const CONDITION_LABELS: Record<ReceiptCondition, string> = {
  acceptable: 'Acceptable',
  'not-acceptable': 'Not acceptable',
};

const REASON_MAX = 500;

/** A receipt as recorded (API body, CLI flags and the staff form). */
export const ReceiptInput = z
  .object({
    receivedAt: z.iso.datetime({ offset: true, message: 'must be a date and time such as 2026-03-01T09:30:00Z' }),
    containers: z.coerce.number('must be a number').int('must be a whole number').min(1, 'must be at least 1').max(999, 'must be at most 999'),
    condition: z.enum(RECEIPT_CONDITIONS, { message: 'must be acceptable or not-acceptable' }),
    reason: z.string('must be text').trim().max(REASON_MAX, `use at most ${REASON_MAX} characters`).nullish(),
    temperatureC: z.coerce
      .number('must be a number of degrees Celsius')
      .min(-80, 'must be at least -80 °C')
      .max(60, 'must be at most 60 °C')
      .nullish(),
  })
  .refine((r) => r.condition === 'acceptable' || (r.reason ?? '').length > 0, {
    path: ['reason'],
    message: 'say why the samples are not acceptable',
  });
export type ReceiptInput = z.output<typeof ReceiptInput>;

/** A recorded receipt as the API answers it. */
export interface Receipt {
  requestId: number;
  receivedAt: string;
  receivedBy: number;
  receivedByName: string;
  containers: number;
  condition: ReceiptCondition;
  reason: string | null;
  temperatureC: number | null;
  /** Above SPEC's 10 °C limit for microbiological samples. */
  temperatureFlagged: boolean;
  /** Not acceptable, or too warm: shown as a warning to the tester and the client. */
  flagged: boolean;
  recordedAt: string;
}

/** Whether a temperature on arrival breaks the microbiology limit (10 °C is still fine). */
export function isTooWarm(temperatureC: number | null | undefined): boolean {
  return temperatureC !== null && temperatureC !== undefined && temperatureC > MICROBIOLOGY_MAX_TEMPERATURE_C;
}

/** The flags of a receipt, from what was recorded. */
export function receiptFlags(r: { condition: ReceiptCondition; temperatureC: number | null }): { temperatureFlagged: boolean; flagged: boolean } {
  const temperatureFlagged = isTooWarm(r.temperatureC);
  return { temperatureFlagged, flagged: temperatureFlagged || r.condition === 'not-acceptable' };
}

/** One line for lists and the timeline, e.g. "3 containers, Not acceptable (leaking), 12 °C (above 10 °C)". */
export function describeReceipt(r: { containers: number; condition: ReceiptCondition; reason: string | null; temperatureC: number | null }): string {
  const parts = [`${r.containers} container${r.containers === 1 ? '' : 's'}`, CONDITION_LABELS[r.condition] + (r.reason ? ` (${r.reason})` : '')];
  if (r.temperatureC !== null) {
    parts.push(`${r.temperatureC} °C${isTooWarm(r.temperatureC) ? ` (above ${MICROBIOLOGY_MAX_TEMPERATURE_C} °C)` : ''}`);
  }
  return parts.join(', ');
}
