// The streams and environment of one labctl run. `bin/labctl` runs with the process's own; tests run
// main(argv) in-process with captured streams and their own environment (runWithIo), several at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Readable, Writable } from 'node:stream';

/** An output stream; on a terminal it says so and how big the window is. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
  /** The command was asked for machine output (--json): logs are then JSON lines too (runtime.ts). */
  json?: boolean;
}

const current = new AsyncLocalStorage<CliIo>();

/**
 * The process's own streams, for the run of `bin/labctl`. That run never enters `current`: once an
 * AsyncLocalStorage has run, Node keeps promise hooks on for every promise of the process, which
 * made each call of `labctl serve` measurably slower.
 */
const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };

/** The streams and environment of the run in progress (the process's own outside runWithIo). */
export function io(): CliIo {
  return current.getStore() ?? processIo;
}

/** Marks the process's own run as asked for machine output (--json). */
export function setProcessJson(json: boolean): void {
  processIo.json = json;
}

export function runWithIo<T>(streams: CliIo, work: () => Promise<T>): Promise<T> {
  return current.run(streams, work);
}
