import { purposeLabel, PURPOSES, type Purpose } from '../../../server/domain/catalog.js';
import { isIsoDate } from '../../../server/domain/dates.js';
import { formatPhp } from '../../../server/domain/fees.js';
import { LAB_SHORT_NAME } from '../../labName.js';

const DAY_FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' };

/** A calendar date (YYYY-MM-DD) as 'March 25, 2026'; null or malformed gives null. */
export function formatDay(ymd: string | null | undefined): string | null {
  if (!ymd || !isIsoDate(ymd)) return null;
  return new Date(`${ymd}T00:00:00Z`).toLocaleDateString('en-US', { ...DAY_FORMAT, timeZone: 'UTC' });
}

/** The local day of an ISO timestamp, as 'March 16, 2026'. */
export function formatTimestampDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-US', DAY_FORMAT);
}

export const php = (amount: number) => `PHP ${formatPhp(amount)}`;

/** Today's date (YYYY-MM-DD) as the server dates a submission: UTC. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The label of a stored purpose ('NMIS Monitoring Program', ...); Others shows its text. */
export function purposeText(purpose: string, other: string | null): string {
  if (!(PURPOSES as readonly string[]).includes(purpose)) return purpose;
  const label = purposeLabel(purpose as Purpose, LAB_SHORT_NAME);
  return purpose === 'Others' && other ? `${label}: ${other}` : label;
}
