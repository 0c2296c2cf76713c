// Ink on a terminal, plain text elsewhere: the helpers commands use to print tables, ask for
// confirmation and show progress. Anything a script needs is printed as text too, since Ink shows
// only its last frame when the stream is not a terminal.
// Ink (and React) load only when something is drawn on a terminal.
import type { ReactElement } from 'react';
import { io } from './io.js';
// runtime's useInk is a plain predicate, not a React hook; the alias keeps the hooks lint rule quiet.
import { info, out, useInk as inkOnTerminal, UsageError } from './runtime.js';
import { formatCount, formatTable } from './table.js';
import type { TableProps } from './views/Table.js';

/** Renders one frame and leaves it on stdout. */
async function printView(view: ReactElement): Promise<void> {
  const { render } = await import('ink');
  const { stdout, stderr, stdin } = io();
  const instance = render(view, { stdout: stdout as NodeJS.WriteStream, stderr: stderr as NodeJS.WriteStream, stdin: stdin as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
  instance.unmount();
  await instance.waitUntilExit();
}

/**
 * Ink lays out every cell: fine for a screenful, minutes for tens of thousands of rows. Longer
 * tables print as plain text even on a terminal (the same columns, without colour).
 */
const INK_MAX_ROWS = 200;

/**
 * The Ink view on a terminal, the same content as plain text otherwise (pipes, files). Text taller
 * than the terminal is printed plain too: Ink redraws a frame taller than the window by clearing
 * the screen, which would wipe the scrollback.
 */
export async function printViewOrText(view: () => ReactElement | Promise<ReactElement>, text: () => string, { rows = 0 } = {}): Promise<void> {
  const plain = text();
  const height = io().stdout.rows ?? Infinity;
  if (inkOnTerminal() && rows <= INK_MAX_ROWS && plain.split('\n').length < height) return printView(await view());
  out(plain);
}

/**
 * The width tables must fit: the terminal's, when stdout is one. Piped output has no width: it
 * keeps one line per row, for scripts (or `less -S`).
 */
export function terminalWidth(): number | undefined {
  const { stdout } = io();
  return stdout.isTTY && stdout.columns ? stdout.columns : undefined;
}

/** A table: Ink on a terminal, aligned plain text otherwise; fitted to the terminal's width either way. */
export function printTable(props: TableProps): Promise<void> {
  const width = props.width ?? terminalWidth();
  return printViewOrText(
    async () => {
      const { Table } = await import('./views/Table.js');
      return <Table {...props} width={width} />;
    },
    () => [...(props.title ? [props.title] : []), props.rows.length === 0 && props.emptyText ? props.emptyText : formatTable(props.columns, props.rows, width)].join('\n'),
    { rows: props.rows.length },
  );
}

/**
 * Asks before something that cannot be undone. Without a terminal to ask on, `assumeYes` (the
 * command's --yes) must be given; the refusal says so.
 */
export async function confirm(message: string, { assumeYes }: { assumeYes?: boolean }): Promise<boolean> {
  if (assumeYes) return true;
  const { stdin, stderr } = io();
  if (!stdin.isTTY || !stderr.isTTY) {
    throw new UsageError(`Not confirmed: "${message}" needs a terminal to ask on; pass --yes to go ahead without asking.`);
  }
  const [{ render }, { Confirm }] = await Promise.all([import('ink'), import('./views/Confirm.js')]);
  let answer = false;
  const instance = render(<Confirm message={message} onAnswer={(yes) => {
    answer = yes;
    instance.unmount();
  }} />, { stdout: stderr as NodeJS.WriteStream, stdin: stdin as NodeJS.ReadStream, patchConsole: false });
  await instance.waitUntilExit();
  return answer;
}

export interface Progress {
  /** `done` of `total` (the total given at the start unless a new one is given). */
  update(done: number, total?: number): void;
  /** Leaves the last frame on the terminal. */
  finish(): Promise<void>;
}

const NO_PROGRESS: Progress = { update() {}, async finish() {} };

export interface ProgressOptions {
  /** --json: no progress at all (stderr is for the JSON error). */
  json?: boolean;
  /** Off a terminal, a plain line on stderr now and then (`Approving: 12 / 50 requests`); otherwise nothing. */
  plainLines?: boolean;
  /** Nothing is shown for work done within this time (default one second): quick work stays quiet. */
  afterMs?: number;
}

/**
 * Progress of work that takes a while, on stderr: an Ink bar on a terminal, or (`plainLines`) a
 * plain line at most once every `afterMs` elsewhere. Nothing appears before `afterMs` has passed.
 */
export async function startProgress(label: string, total: number, unit: string, { json = false, plainLines = false, afterMs = 1000 }: ProgressOptions = {}): Promise<Progress> {
  const { stderr } = io();
  if (json || (!stderr.isTTY && !plainLines)) return NO_PROGRESS;
  const started = Date.now();
  let of = total;
  let current = 0;
  if (!stderr.isTTY) {
    let printed: number | null = null;
    const line = () => `${label}: ${formatCount(current)} / ${formatCount(of)} ${unit}`;
    return {
      update(done, newTotal) {
        current = done;
        of = newTotal ?? of;
        const now = Date.now();
        if (now - started < afterMs || (printed !== null && now - printed < afterMs)) return;
        printed = now;
        info(line());
      },
      async finish() {
        // The last count, once lines were shown: the reader sees the work end.
        if (printed !== null) info(line());
      },
    };
  }
  const [{ render }, { ProgressBar }] = await Promise.all([import('ink'), import('./views/ProgressBar.js')]);
  const view = (done: number) => <ProgressBar label={label} done={done} total={of} unit={unit} />;
  let instance: ReturnType<typeof render> | null = null;
  let shown = 0;
  return {
    update(done, newTotal) {
      current = done;
      of = newTotal ?? of;
      if (!instance) {
        if (Date.now() - started < afterMs) return;
        instance = render(view(done), { stdout: stderr as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
      }
      // Ink throttles frames itself; skipping tiny steps saves React work on big files.
      if (done !== of && done - shown < of / 200) return;
      shown = done;
      instance.rerender(view(done));
    },
    async finish() {
      if (!instance) return;
      instance.rerender(view(current));
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
