/**
 * Playwright fixtures of the browser tests.
 *
 * `lab` (one per worker): an in-process SMTP mail catcher, a temporary data directory and
 * `node bin/labctl serve --port 0 --demo` using both. Tests get `baseURL` from it, so
 * `page.goto('/login')` and `page.request.post('/login', ...)` reach that server.
 *
 * Needs a build (`npm run build`): bin/labctl runs the compiled CLI and the server serves dist/ui.
 *
 *   import { test, expect } from './fixtures.js';
 *   test('...', async ({ page, lab }) => { ... lab.mailbox.waitFor(lab.demo.client.email) ... });
 *
 * E2E_SERVER_LOG=1 echoes the server's output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';

export { expect };
export type { Mail, Mailbox, WaitForOptions } from '../helpers/mailbox.js';
export { extractCode } from '../helpers/mailbox.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The product title in the header (ui/labName.ts default; the e2e server runs with defaults). */
export const LAB_NAME = 'National Meat Inspection Service';

export const DEMO_PASSWORD = 'demo-password';

export type DemoRole = 'client' | 'staff' | 'chemtester' | 'microbiotester' | 'molbiotester';

export interface DemoAccount {
  role: DemoRole;
  email: string;
  password: string;
}

function demoAccount(role: DemoRole): DemoAccount {
  return { role, email: `${role}@demo.lab`, password: DEMO_PASSWORD };
}

/** The accounts `labctl serve --demo` seeds: `<role>@demo.lab` / `demo-password`. */
export const DEMO: Readonly<Record<DemoRole, DemoAccount>> = {
  client: demoAccount('client'),
  staff: demoAccount('staff'),
  chemtester: demoAccount('chemtester'),
  microbiotester: demoAccount('microbiotester'),
  molbiotester: demoAccount('molbiotester'),
};

export interface Lab {
  /** http://localhost:<port> of the running server. */
  baseURL: string;
  /** Every message the server sent. */
  mailbox: Mailbox;
  demo: Readonly<Record<DemoRole, DemoAccount>>;
  /** The temporary DATA_DIR of the server. */
  dataDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

function serverEnv(dataDir: string, smtpUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Settings a developer's shell or CI may carry must not leak into the test server.
  for (const key of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'LAB_NAME', 'LAB_SHORT_NAME', 'SMTP_URL', 'MAIL_FROM']) {
    delete env[key];
  }
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  return {
    ...env,
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'lab@test.local',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}

/** Spawns `labctl serve --port 0 --demo` and resolves with its base URL once it listens. */
async function startServer(
  dataDir: string,
  smtpUrl: string,
  log: (line: string) => void,
): Promise<{ child: ChildProcess; baseURL: string }> {
  const bin = path.join(REPO_ROOT, 'bin', 'labctl');
  if (!existsSync(bin)) throw new Error(`${bin} is missing`);
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'labctl'))) {
    throw new Error('dist/labctl is missing: run `npm run build` before the browser tests');
  }
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'ui', 'index.html'))) {
    throw new Error('dist/ui/index.html is missing: run `npm run build:ui` before the browser tests');
  }

  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--demo'], {
    cwd: REPO_ROOT,
    env: serverEnv(dataDir, smtpUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new Error(`labctl serve did not print "Listening on http://..." within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    createInterface({ input: child.stderr! }).on('line', log);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      log(line);
      const match = /Listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/+$/, ''));
      }
    });
    child.once('error', (error) => fail(error));
    child.once('exit', (code, signal) => {
      fail(new Error(`labctl serve exited (code ${code}, signal ${signal}) before listening`));
    });
  });
  return { child, baseURL };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<object, { lab: Lab }>({
  lab: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide, workerInfo) => {
      const lines: string[] = [];
      const echo = process.env.E2E_SERVER_LOG === '1';
      const log = (line: string) => {
        lines.push(line);
        if (echo) console.log(`[labctl ${workerInfo.workerIndex}] ${line}`);
      };

      const mailbox = await startMailbox();
      const dataDir = await mkdtemp(path.join(tmpdir(), 'lab-e2e-'));
      let child: ChildProcess | undefined;
      try {
        let baseURL: string;
        try {
          ({ child, baseURL } = await startServer(dataDir, mailbox.url, log));
        } catch (error) {
          const output = lines.slice(-40).join('\n');
          throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`, { cause: error });
        }
        await provide({
          baseURL,
          mailbox,
          demo: DEMO,
          dataDir,
          output: () => lines.join('\n'),
        });
      } finally {
        if (child) await stopServer(child);
        await mailbox.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  baseURL: async ({ lab }, provide) => {
    await provide(lab.baseURL);
  },
});
