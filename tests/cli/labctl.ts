// Runs labctl against a temporary data directory: in-process through main(argv) with captured
// streams (labctl), or as the real compiled bin/labctl in a child process (labctlProcess) for the
// few smoke tests of what only a process shows: exit codes, signals, broken pipes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { execa, type Options, type ResultPromise } from 'execa';
import { afterEach } from 'vitest';
import { main } from '../../cli/main.js';

export const LABCTL = path.resolve('bin/labctl');

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
/**
 * Whom to run labctl as so that file permissions apply: root passes every permission check, so a
 * test running as root runs labctl as nobody; any other user runs it as itself.
 */
export const UNPRIVILEGED: { uid?: number; gid?: number } = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
/** Makes `paths` belong to the UNPRIVILEGED user (as root; otherwise they are the test's own already). */
export function giveToUnprivileged(...paths: string[]): void {
  if (asRoot) for (const p of paths) fs.chownSync(p, NOBODY, NOBODY);
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'labctl-test-'));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Registers an afterEach removing the directories that the returned function made during the test. */
export function dataDirsPerTest(): () => string {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(removeDir));
  return () => {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  };
}

export interface LabctlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunOptions {
  /** Variables added to the environment (after the data directory and the test defaults). */
  env?: Record<string, string>;
  /** Standard input; empty when left out. */
  input?: string | Uint8Array;
  /** Makes stdout a terminal this many columns wide (Ink draws on it, as for a person). */
  terminalColumns?: number;
}

/** The test environment: the data directory, no log lines, SQLite and the outbox unless `env` says otherwise. */
const testEnv = (dataDir: string, env: Record<string, string> = {}) => ({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', SMTP_URL: '', ...env });

/** A stream that keeps what is written to it. */
function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs labctl in-process (main(argv)) and resolves with stdout, stderr and exit code whatever the outcome. */
export async function labctl(args: string[], dataDir: string, options: RunOptions = {}): Promise<LabctlResult> {
  const stdout = capture();
  const stderr = capture();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const terminal = options.terminalColumns === undefined ? {} : { isTTY: true, columns: options.terminalColumns, rows: 200 };
  const exitCode = await main(['node', 'labctl', ...args], {
    stdin,
    stdout: Object.assign(stdout.stream, terminal),
    stderr: stderr.stream,
    env: { ...process.env, ...testEnv(dataDir, options.env) },
  });
  return { stdout: stdout.text().replace(/\n$/, ''), stderr: stderr.text().replace(/\n$/, ''), exitCode };
}

/** Runs the real bin/labctl in a child process; resolves whatever the outcome. */
export async function labctlProcess(args: string[], dataDir: string, options: Options = {}): Promise<LabctlResult> {
  const result = await execa('node', [LABCTL, ...args], {
    reject: false,
    extendEnv: true,
    stdin: 'ignore',
    timeout: 60_000,
    ...options,
    // After the spread, so extra variables in options.env keep the data directory and defaults.
    env: testEnv(dataDir, (options.env ?? {}) as Record<string, string>),
  });
  return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: result.exitCode ?? 1 };
}

/** Starts the built `labctl serve` with `args` and resolves once it prints the address it listens on. */
export async function startServe(args: string[], env: Record<string, string>): Promise<{ child: ResultPromise<{ reject: false }>; url: string; stdout: string }> {
  const child = execa('node', [LABCTL, 'serve', ...args], { env, reject: false, timeout: 60_000 });
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const m = stdout.match(/Listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${stdout}`)));
  });
  return { child, url, stdout };
}
