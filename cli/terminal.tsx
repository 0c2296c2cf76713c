// Ink on a terminal, plain text elsewhere: the helpers commands use to print tables, ask for
// confirmation and show progress. Anything a script needs is printed as text too, since Ink shows
// only its last frame when the stream is not a terminal.
import type { ReactElement } from 'react';
import { render } from 'ink';
// runtime's useInk is a plain predicate, not a React hook; the alias keeps the hooks lint rule quiet.
import { out, useInk as inkOnTerminal, UsageError } from './runtime.js';
import { formatTable } from './table.js';
import { Confirm } from './views/Confirm.js';
import { ProgressBar } from './views/ProgressBar.js';
import { Table, type TableProps } from './views/Table.js';

/** Renders one frame and leaves it on stdout. */
async function printView(view: ReactElement): Promise<void> {
  const instance = render(view, { patchConsole: false, exitOnCtrlC: false });
  instance.unmount();
  await instance.waitUntilExit();
}

/**
 * Ink lays out every cell: fine for a screenful, minutes for tens of thousands of rows. Longer
 * tables print as plain text even on a terminal (the same columns, without colour).
 */
const INK_MAX_ROWS = 200;

/** The Ink view on a terminal, the same content as plain text otherwise (pipes, files). */
export async function printViewOrText(view: () => ReactElement, text: () => string, { rows = 0 } = {}): Promise<void> {
  if (inkOnTerminal() && rows <= INK_MAX_ROWS) return printView(view());
  out(text());
}

/** A table: Ink on a terminal, aligned plain text otherwise. */
export function printTable(props: TableProps): Promise<void> {
  return printViewOrText(
    () => <Table {...props} />,
    () => [...(props.title ? [props.title] : []), props.rows.length === 0 && props.emptyText ? props.emptyText : formatTable(props.columns, props.rows)].join('\n'),
    { rows: props.rows.length },
  );
}

/**
 * Asks before something that cannot be undone. Without a terminal to ask on, `assumeYes` (the
 * command's --yes) must be given; the refusal says so.
 */
export async function confirm(message: string, { assumeYes }: { assumeYes?: boolean }): Promise<boolean> {
  if (assumeYes) return true;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UsageError(`Not confirmed: "${message}" needs a terminal to ask on; pass --yes to go ahead without asking.`);
  }
  let answer = false;
  const instance = render(<Confirm message={message} onAnswer={(yes) => {
    answer = yes;
    instance.unmount();
  }} />, { stdout: process.stderr, patchConsole: false });
  await instance.waitUntilExit();
  return answer;
}

export interface Progress {
  update(done: number): void;
  /** Leaves the last frame on the terminal. */
  finish(): Promise<void>;
}

const NO_PROGRESS: Progress = { update() {}, async finish() {} };

/** A progress bar on stderr when it is a terminal; nothing otherwise (the summary says it all). */
export function startProgress(label: string, total: number, unit: string, { json = false } = {}): Progress {
  if (json || !process.stderr.isTTY) return NO_PROGRESS;
  const view = (done: number) => <ProgressBar label={label} done={done} total={total} unit={unit} />;
  const instance = render(view(0), { stdout: process.stderr, patchConsole: false, exitOnCtrlC: false });
  let shown = 0;
  let current = 0;
  return {
    update(done) {
      current = done;
      // Ink throttles frames itself; skipping tiny steps saves React work on big files.
      if (done !== total && done - shown < total / 200) return;
      shown = done;
      instance.rerender(view(done));
    },
    async finish() {
      instance.rerender(view(current));
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
