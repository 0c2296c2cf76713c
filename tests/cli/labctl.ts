// Runs the real bin/labctl (compiled) against a temporary data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type Options } from 'execa';

export const LABCTL = path.resolve('bin/labctl');

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'labctl-test-'));
}

/** Runs labctl and resolves with stdout, stderr and exit code whatever the outcome. */
export async function labctl(args: string[], dataDir: string, options: Options = {}): Promise<{ stdout: string; stderr: string; exitCode: number }> {
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
