// Record ids as callers send them: path segments, query lists, JSON numbers. Pure, so every call
// (and any other edge) reads an id the same way.
import { z } from 'zod';

/** The largest id a table holds: ids are 32-bit integer columns on PostgreSQL. */
export const MAX_ID = 2_147_483_647;

const ID_MESSAGE = `must be an id (a whole number from 1 to ${MAX_ID})`;

/**
 * An id written in digits or sent as a number, from 1 to {@link MAX_ID}. Anything else ('abc', '-1',
 * '1.5', '0x1A', a 30-digit number) is refused here, so no database ever sees an id it cannot store
 * (PostgreSQL would answer "integer out of range").
 */
export const IdSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) ? Number(value) : value),
  z.number(ID_MESSAGE).refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_ID, ID_MESSAGE),
);
