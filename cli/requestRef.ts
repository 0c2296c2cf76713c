// Naming a request on the command line: its id (12) or its control number (2026-0012). Shared by the
// commands that take a request (requests, certificate, labels, receive, ...), which never import
// each other (eslint.config.js).
import type { Knex } from 'knex';
import { IdSchema, MAX_ID } from '../server/domain/ids.js';
import { findRequest, findRequestByControlNumber, type RequestView } from '../server/services/requests/read.js';
import { AbortError, UsageError } from './runtime.js';

/** A request named by its id (12) or its control number (2026-0012). */
export async function resolveRequest(db: Knex, ref: string): Promise<RequestView> {
  const text = ref.trim();
  if (/^[0-9]+$/.test(text)) {
    // The API's bound: a larger number is no id at all, and PostgreSQL would refuse to look it up.
    const id = IdSchema.safeParse(text);
    if (!id.success) throw new UsageError(`"${text}" is not a request id: ids are whole numbers from 1 to ${MAX_ID}.`);
    const found = await findRequest(db, id.data);
    if (!found) throw new AbortError(`There is no request ${text}.`);
    return found;
  }
  if (!/^[0-9]{4}-[0-9]+$/.test(text)) throw new UsageError(`"${ref}" is neither a request id (e.g. 12) nor a control number (e.g. 2026-0012).`);
  const found = await findRequestByControlNumber(db, text);
  if (!found) throw new AbortError(`No request has control number ${text}.`);
  return found;
}
