import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { Confirm } from '../../cli/views/Confirm.js';
import { ProgressBar } from '../../cli/views/ProgressBar.js';
import { RequestDetails } from '../../cli/views/RequestDetails.js';
import { requestDetailsText, type RequestDocument } from '../../cli/views/requestDetailsText.js';
import { formatTable } from '../../cli/table.js';
import { Table } from '../../cli/views/Table.js';

// Ink styles text with ANSI codes; what a person reads is the text between them.
const plain = (frame: string | undefined) => stripVTControlCharacters(frame ?? '');
// Ink subscribes to input in an effect, which runs once the first render has been committed.
const inputReady = () => new Promise((resolve) => setImmediate(resolve));

describe('Table', () => {
  it('lines up columns under their headers, numbers to the right', () => {
    const { lastFrame } = render(
      <Table
        title="For Release"
        columns={[{ header: 'ID', align: 'right' }, { header: 'Control Number' }, { header: 'Status' }]}
        rows={[['7', '2026-0007', 'FOR RELEASE'], ['12', '2026-0012', 'FOR TESTING']]}
      />,
    );
    expect(plain(lastFrame()).split('\n')).toEqual([
      'For Release',
      'ID  Control Number  Status',
      '──  ──────────────  ───────────',
      ' 7  2026-0007       FOR RELEASE',
      '12  2026-0012       FOR TESTING',
    ]);
  });

  it('fits a width as the plain text does: split into parts with a note, the first column repeated', () => {
    const columns = [{ header: 'Test' }, ...['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'].map((m) => ({ header: m, align: 'right' as const }))];
    const rows = [['Salmonella sp.', '1/20', '0/31', '2/18', '0/25', '3/40', '12/345']];
    const { lastFrame } = render(<Table columns={columns} rows={rows} width={40} />);
    const text = formatTable(columns, rows, 40);
    expect(text.split('\n')[0]).toBe('(2 parts to fit 40 columns; a pipe or');
    expect(plain(lastFrame()).replace(/─/g, '-')).toBe(text);
  });

  it('says so when there is nothing to show', () => {
    const { lastFrame } = render(<Table columns={[{ header: 'ID' }]} rows={[]} emptyText="There are no pending requests as of the moment." />);
    expect(plain(lastFrame())).toBe('There are no pending requests as of the moment.');
  });
});

describe('ProgressBar', () => {
  it('shows the share done and the counts', () => {
    const { lastFrame, rerender } = render(<ProgressBar label="Importing results" done={0} total={100000} unit="rows" width={10} />);
    expect(plain(lastFrame())).toBe('Importing results ░░░░░░░░░░   0% 0 / 100,000 rows');
    rerender(<ProgressBar label="Importing results" done={45000} total={100000} unit="rows" width={10} />);
    expect(plain(lastFrame())).toBe('Importing results █████░░░░░  45% 45,000 / 100,000 rows');
    rerender(<ProgressBar label="Importing results" done={100000} total={100000} unit="rows" width={10} />);
    expect(plain(lastFrame())).toBe('Importing results ██████████ 100% 100,000 / 100,000 rows');
  });
});

describe('Confirm', () => {
  it('answers yes to "y"', async () => {
    const onAnswer = vi.fn();
    const { lastFrame, stdin } = render(<Confirm message="Reject request 2026-0012?" onAnswer={onAnswer} />);
    expect(plain(lastFrame())).toBe('? Reject request 2026-0012? (y/N)');
    await inputReady();
    stdin.write('y');
    await vi.waitFor(() => expect(plain(lastFrame())).toBe('? Reject request 2026-0012? (y/N) yes'));
    // The answer is reported by an effect after that frame.
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(true));
  });

  it('answers no to Enter, the safe default, and ignores other keys', async () => {
    const onAnswer = vi.fn();
    const { lastFrame, stdin } = render(<Confirm message="Reject request 2026-0012?" onAnswer={onAnswer} />);
    await inputReady();
    stdin.write('x');
    stdin.write('\r');
    await vi.waitFor(() => expect(plain(lastFrame())).toContain('(y/N) no'));
    // 'x' came first and answered nothing.
    await vi.waitFor(() => expect(onAnswer.mock.calls).toEqual([[false]]));
  });
});

describe('RequestDetails', () => {
  const doc: RequestDocument = {
    title: 'Request 3, Control Number: 2026-0002',
    fields: [['Status', 'FOR RELEASE'], ['Sample Category', 'Walk-in']],
    tables: [{ title: 'Samples', columns: [{ header: '#', align: 'right' }, { header: 'Sample Type Description' }], rows: [['1', 'Beef loin']] }],
  };

  it('shows the fields aligned and the tables, as the plain text does', () => {
    const { lastFrame } = render(<RequestDetails doc={doc} />);
    const text = requestDetailsText(doc);
    expect(text.split('\n')).toEqual([
      'Request 3, Control Number: 2026-0002',
      'Status:          FOR RELEASE',
      'Sample Category: Walk-in',
      '',
      'Samples',
      '#  Sample Type Description',
      '-  -----------------------',
      '1  Beef loin',
    ]);
    expect(plain(lastFrame()).replace(/─/g, '-')).toBe(text);
  });
});
