// Tables fit the terminal (issue 27): a table wider than the window is split into parts, the first
// column repeated, with a note saying so; a cell too wide alone wraps. No value is ever cut.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatTable, layoutTable, wrapCell } from '../../cli/table.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('layoutTable', () => {
  it('keeps a table that fits as it is, and one line per row without a width', () => {
    const columns = [{ header: 'A' }, { header: 'B' }];
    expect(formatTable(columns, [['x', 'y']], 80)).toBe(formatTable(columns, [['x', 'y']]));
    expect(layoutTable(columns, [['x'.repeat(300), 'y']])).toHaveLength(1);
  });

  it('wraps a cell too wide for the width at spaces, keeping every character', () => {
    const text = 'Samples arrived thawed and the bag was leaking at one corner';
    const pieces = wrapCell(text, 20);
    expect(pieces.every((p) => p.length <= 20)).toBe(true);
    expect(pieces.join(' ')).toBe(text);
    expect(wrapCell('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('splits a wide table into parts that repeat the first column, and says so', () => {
    const columns = [{ header: 'Test' }, ...Array.from({ length: 8 }, (_, i) => ({ header: `Column ${i + 1}` }))];
    const text = formatTable(columns, [['Row one', ...Array(8).fill('value 1234')]], 40);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\(\d parts to fit 40 columns; /);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(40);
    for (let i = 1; i <= 8; i++) expect(text).toContain(`Column ${i}`);
    expect(text.match(/value 1234/g)).toHaveLength(8);
    expect(text.match(/^Row one/gm)!.length).toBe(lines.filter((l) => l.startsWith('Test')).length);
  });
});

describe(`labctl tables on a terminal (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase, 'all');

  for (const columns of [80, 120]) {
    it(`report monthly fits ${columns} columns and keeps December and Total`, async () => {
      const res = await lab.run(['report', 'monthly', '--year', '2026', '--discipline', 'microbio'], { terminalColumns: columns });
      expect(res.exitCode).toBe(0);
      const lines = stripVTControlCharacters(res.stdout).split('\n').map((l) => l.trimEnd());
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(columns);
      // The demo counts are small: at 120 the table fits whole, at 80 it is split with a note.
      if (columns === 80) expect(lines).toContainEqual(expect.stringMatching(/^\(\d parts to fit 80 columns/));
      const headerLines = lines.filter((l) => l.startsWith('Test ')).map((l) => l.split(/\s{2,}/).slice(1));
      expect(headerLines.flat()).toEqual([...MONTHS, 'Total']);
      // Split evenly: January to June, then July to December and the Total.
      if (columns === 80) expect(headerLines).toEqual([MONTHS.slice(0, 6), [...MONTHS.slice(6), 'Total']]);
      // The Total row in every part, its cells together the whole year: March's 0/4 and the year's 0/4.
      const totals = lines.filter((l) => l.startsWith('Total ')).flatMap((l) => l.split(/\s{2,}/).slice(1));
      expect(totals).toEqual(['0/0', '0/0', '0/4', ...Array(9).fill('0/0'), '0/4']);
    });
  }

  it('audit keeps every entry\'s details whole: on one line in a pipe, wrapped within 80 columns on a terminal', async () => {
    const entries = JSON.parse((await lab.run(['audit', '--json'])).stdout) as Array<{ details: unknown }>;
    const longest = entries.map((e) => JSON.stringify(e.details)).sort((a, b) => b.length - a.length)[0];
    expect(longest.length).toBeGreaterThan(80);
    expect((await lab.run(['audit'])).stdout).toContain(longest);
    const narrow = stripVTControlCharacters((await lab.run(['audit'], { terminalColumns: 80 })).stdout);
    expect(Math.max(...narrow.split('\n').map((l) => l.trimEnd().length))).toBeLessThanOrEqual(80);
  });

  it('requests list fits 80 columns, wrapping no value away', async () => {
    const res = await lab.run(['requests', 'list'], { terminalColumns: 80 });
    expect(res.exitCode).toBe(0);
    const text = stripVTControlCharacters(res.stdout);
    expect(Math.max(...text.split('\n').map((l) => l.trimEnd().length))).toBeLessThanOrEqual(80);
    for (const header of ['Control Number', 'Submission Date', 'Client Classification', 'Tests Selected']) expect(text).toContain(header);
    const list = JSON.parse((await lab.run(['requests', 'list', '--json'])).stdout) as Array<{ controlNumber: string | null }>;
    for (const r of list) if (r.controlNumber) expect(text).toContain(r.controlNumber);
  });
});
