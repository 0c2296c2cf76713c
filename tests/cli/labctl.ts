// Runs the real bin/labctl (compiled) against a temporary data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type Options } from 'execa';
import { afterEach } from 'vitest';

export const LABCTL = path.resolve('bin/labctl');

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

/** Runs labctl and resolves with stdout, stderr and exit code whatever the outcome. */
export async function labctl(args: string[], dataDir: string, options: Options = {}): Promise<LabctlResult> {
  const result = await execa('node', [LABCTL, ...args], {
    reject: false,
    extendEnv: true,
    stdin: 'ignore',
    timeout: 60_000,
    ...options,
    // After the spread, so extra variables in options.env keep the data directory and defaults.
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', SMTP_URL: '', ...(options.env ?? {}) },
  });
  return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: result.exitCode ?? 1 };
}
