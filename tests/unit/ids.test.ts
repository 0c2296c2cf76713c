import { describe, expect, it } from 'vitest';
import { IdSchema, MAX_ID } from '../../server/domain/ids.js';

describe('IdSchema', () => {
  it.each([
    ['1', 1],
    [' 42 ', 42],
    [42, 42],
    [String(MAX_ID), MAX_ID],
  ])('reads %j as the id %d', (input, id) => {
    expect(IdSchema.parse(input)).toBe(id);
  });

  // Anything a database could not store, or that only looks like a number to JavaScript.
  it.each(['abc', '', '0', '-1', '1.5', '1e3', '0x1A', 'Infinity', String(MAX_ID + 1), '9'.repeat(30), '\u0000', '٣', 0, -1, 1.5, MAX_ID + 1, null, undefined, [1], {}])(
    'refuses %j with one message',
    (input) => {
      const result = IdSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([`must be an id (a whole number from 1 to ${MAX_ID})`]);
    },
  );
});
