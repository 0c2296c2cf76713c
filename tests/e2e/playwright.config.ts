import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests: `npm run test:e2e` (after `npm run build`).
 * Drives Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium); never downloads a browser.
 * Each worker starts its own `labctl serve --demo` with a mail catcher (see fixtures.ts).
 */
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: path.join(here, '..', '..', 'test-results', 'e2e'),
  // Two workers, each with its own server and data (fixtures.ts), so tests never share state across
  // workers and any test may run in either.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: 'list',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // No trace: recording one costs about a quarter of every test's time (shell.spec.ts: 41 s with it,
    // 32 s without). To debug a failure, run again with `--trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
